import { axeCore } from '../../../../lib/lazy-axe';
import { renderingOf } from './rendering';
import type { SeoPage, Verdict } from './seo-page';

/**
 * Lighthouse's SEO `image-alt` is axe's image-alt rule. Its checks, without running axe (which
 * costs more than every other SEO audit together on a large page): an image visible to screen
 * readers needs an alt attribute that is not only spaces, an aria-label, an aria-labelledby
 * pointing at text, a title, or an effective presentational role.
 */

// Roles that need an accessible name (axe's standards); any other explicit role takes the image
// out of the rule unless it is focusable.
const NAME_REQUIRED = new Set(
  'alertdialog application button checkbox combobox dialog image img link listbox menuitem menuitemcheckbox menuitemradio meter option progressbar radio searchbox slider spinbutton switch textbox toolbar treeitem'.split(
    ' ',
  ),
);
// Untyped in axe's d.ts, as validLangs is.
let globalAria: string[] | undefined;
const globalAriaAttributes = () =>
  (globalAria ??= (
    axeCore().commons as unknown as { standards: { getGlobalAriaAttrs(): string[] } }
  ).standards.getGlobalAriaAttrs());

const explicitRole = (img: Element) =>
  (img.getAttribute('role') ?? '').trim().toLowerCase().split(/\s+/)[0] ?? '';
const isFocusable = (img: Element) => /^\s*-?\d+\s*$/.test(img.getAttribute('tabindex') ?? '');
const isPresentationRole = (role: string) => role === 'none' || role === 'presentation';

/** role="none"/"presentation" counts only without global ARIA attributes and focus (ARIA conflict rules). */
function isPresentational(img: Element): boolean {
  if (img.getAttribute('alt') === '') return true; // implicit role of an empty-alt image
  return (
    isPresentationRole(explicitRole(img)) &&
    !globalAriaAttributes().some((a) => img.hasAttribute(a)) &&
    !isFocusable(img)
  );
}

function isInRule(img: Element): boolean {
  const role = explicitRole(img);
  return !role || isPresentationRole(role) || NAME_REQUIRED.has(role) || isFocusable(img);
}

function hasTextAlternative(img: Element): boolean {
  const doc = img.ownerDocument;
  const labelledBy = (img.getAttribute('aria-labelledby') ?? '')
    .split(/\s+/)
    .some((id) => id && doc.getElementById(id)?.textContent?.trim());
  return (
    img.hasAttribute('alt') ||
    Boolean(img.getAttribute('aria-label')?.trim()) ||
    labelledBy ||
    Boolean(img.getAttribute('title')?.trim()) ||
    isPresentational(img)
  );
}

/** An alt of spaces only ("alt-space-value"), unless the image is presentational. */
function hasSpaceAlt(img: Element): boolean {
  return /^\s+$/.test(img.getAttribute('alt') ?? '') && !isPresentational(img);
}

export function imageAlt(page: SeoPage): Verdict {
  const rendering = renderingOf(page.document);
  const images = [...page.document.querySelectorAll('img')].filter(
    (img) => isInRule(img) && !rendering.isHiddenFromReaders(img),
  );
  if (images.length === 0) return { passed: true, applicable: false, details: 'No images.' };
  const failing = images.filter((img) => !hasTextAlternative(img) || hasSpaceAlt(img));
  return failing.length
    ? {
        passed: false,
        details: `${failing.length} image(s) without alt text: ${failing
          .slice(0, 5)
          .map((i) => i.getAttribute('src') ?? '(no src)')
          .join(', ')}`,
      }
    : { passed: true, details: `All ${images.length} image(s) have alternative text.` };
}
