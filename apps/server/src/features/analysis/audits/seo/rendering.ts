/**
 * What a browser would not show, judged from jsdom's computed styles (the [hidden] attribute,
 * inline styles and the page's own style sheets; no layout). Lighthouse reads link text through
 * innerText and lets axe skip hidden images, so the SEO audits need the same notion.
 *
 * getComputedStyle is slow in jsdom (it matches every rule), so it is asked only about candidates:
 * elements that a hiding declaration (display: none, visibility: hidden) or the user-agent sheet
 * could reach. Anything else cannot be hidden, whatever the cascade.
 */

// Elements jsdom's user-agent sheet does not display (and <dialog> without open).
const UA_HIDDEN = new Set(
  'area base basefont datalist head link meta noembed noframes param rp script style template title'.split(
    ' ',
  ),
);

interface Candidates {
  display: Set<Element>;
  visibility: Set<Element>;
}

function ruleLists(doc: Document): CSSRuleList[] {
  const lists: CSSRuleList[] = [];
  for (const sheet of doc.styleSheets) {
    try {
      lists.push(sheet.cssRules);
    } catch {
      /* an unreadable sheet hides nothing we can know of */
    }
  }
  return lists;
}

function matching(doc: Document, selector: string): Element[] {
  try {
    return [...doc.querySelectorAll(selector)];
  } catch {
    // One unsupported selector (a pseudo-element, say) spoils the list: try its parts alone.
    return selector.split(',').flatMap((part) => {
      try {
        return [...doc.querySelectorAll(part)];
      } catch {
        return [];
      }
    });
  }
}

function candidates(doc: Document): Candidates {
  const display = new Set<Element>();
  const visibility = new Set<Element>();
  // One walk over the attributes: attribute selectors and getElementsByTagName('*') are slow in
  // jsdom, a TreeWalker is not.
  const walker = doc.createTreeWalker(doc, 1 /* NodeFilter.SHOW_ELEMENT */);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node as Element;
    const style = el.getAttribute('style');
    if (
      el.hasAttribute('hidden') ||
      UA_HIDDEN.has(el.localName) ||
      (el.localName === 'dialog' && !el.hasAttribute('open')) ||
      (style && /display/i.test(style))
    )
      display.add(el);
    if (style && /visibility/i.test(style)) visibility.add(el);
  }
  const visit = (rules: CSSRuleList) => {
    for (const rule of rules) {
      const style = (rule as CSSStyleRule).style;
      const selector = (rule as CSSStyleRule).selectorText;
      if (style && selector) {
        if (/none/i.test(style.getPropertyValue('display')))
          for (const el of matching(doc, selector)) display.add(el);
        if (/hidden|collapse/i.test(style.getPropertyValue('visibility')))
          for (const el of matching(doc, selector)) visibility.add(el);
      }
      const nested = (rule as CSSGroupingRule).cssRules;
      if (nested) visit(nested); // @media, @supports
    }
  };
  for (const rules of ruleLists(doc)) visit(rules);
  return { display, visibility };
}

export class Rendering {
  private readonly notRendered = new WeakMap<Element, boolean>();
  private readonly hiddenFromReaders = new WeakMap<Element, boolean>();
  private readonly mayBeInvisible = new WeakMap<Element, boolean>();
  private readonly candidates: Candidates;

  constructor(private readonly window: Window) {
    this.candidates = candidates(window.document);
  }

  private displayNone(el: Element): boolean {
    return this.candidates.display.has(el) && this.window.getComputedStyle(el).display === 'none';
  }

  private invisible(el: Element): boolean {
    if (!this.reachedByVisibility(el)) return false;
    return ['hidden', 'collapse'].includes(this.window.getComputedStyle(el).visibility);
  }

  /** Whether a visibility declaration applies to the element or an ancestor (it inherits). */
  private reachedByVisibility(el: Element): boolean {
    return inherited(this.mayBeInvisible, el, (e) => this.candidates.visibility.has(e));
  }

  /** display:none on the element or an ancestor. */
  isNotRendered(el: Element): boolean {
    return inherited(this.notRendered, el, (e) => this.displayNone(e));
  }

  /** axe's "not visible to screen readers": not rendered, invisible, or inside aria-hidden. */
  isHiddenFromReaders(el: Element): boolean {
    const hidden = inherited(
      this.hiddenFromReaders,
      el,
      (e) => e.getAttribute('aria-hidden')?.trim().toLowerCase() === 'true' || this.displayNone(e),
    );
    return hidden || this.invisible(el);
  }

  /**
   * innerText, as far as it matters for matching short phrases: the text of rendered descendants
   * (an element that is itself not rendered gives all its text, as innerText does).
   */
  text(el: Element): string {
    if (this.isNotRendered(el)) return el.textContent ?? '';
    let out = '';
    const walk = (node: Node) => {
      for (const child of node.childNodes) {
        if (child.nodeType === 3) out += child.nodeValue ?? '';
        else if (child.nodeType === 1 && !this.displayNone(child as Element)) walk(child);
      }
    };
    walk(el);
    return out.replace(/\s+/g, ' ');
  }
}

/** Whether `own` holds for the element or one of its ancestors, memoised per element. */
function inherited(
  cache: WeakMap<Element, boolean>,
  el: Element,
  own: (e: Element) => boolean,
): boolean {
  let value = cache.get(el);
  if (value === undefined) {
    value = own(el) || (el.parentElement ? inherited(cache, el.parentElement, own) : false);
    cache.set(el, value);
  }
  return value;
}

const byDocument = new WeakMap<Document, Rendering>();

/** One Rendering per document, so the audits of one page share the computed styles. */
export function renderingOf(doc: Document): Rendering {
  let r = byDocument.get(doc);
  if (!r) {
    r = new Rendering(doc.defaultView as unknown as Window);
    byDocument.set(doc, r);
  }
  return r;
}
