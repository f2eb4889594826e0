import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Fonts for exported PDFs, found on disk at run time (never downloaded). The built-in PDF fonts
 * only cover Latin-1, so non-Latin text needs an embedded TrueType/OpenType font that has its
 * glyphs. Looked for, in order: an npm font package (when one is added to the server), Debian's
 * Noto and DejaVu fonts, and the Liberation Sans that pdfjs-dist ships (Latin, Greek, Cyrillic).
 * Each character is drawn with the first font that has a glyph for it.
 */
export interface FontSource {
  path: string;
  /** PostScript name of the face inside a .ttc collection. */
  family?: string;
}

const require = createRequire(import.meta.url);

const SYSTEM_FONTS: FontSource[] = [
  { path: '/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf' },
  { path: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf' },
  { path: '/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf' },
  { path: '/usr/share/fonts/truetype/noto/NotoNaskhArabic-Regular.ttf' },
  { path: '/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf' },
  { path: '/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf' },
  { path: '/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf' },
  // fonts-noto-cjk: one collection for Chinese, Japanese and Korean.
  {
    path: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
    family: 'NotoSansCJKsc-Regular',
  },
  { path: '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc', family: 'WenQuanYiZenHei' },
  { path: '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf' },
];

/** npm packages that ship Noto fonts as plain .ttf/.otf files (none is installed by default). */
const FONT_PACKAGES = [
  '@embedpdf/fonts-latin',
  '@embedpdf/fonts-arabic',
  '@embedpdf/fonts-hebrew',
  '@embedpdf/fonts-sc',
  '@embedpdf/fonts-jp',
  '@embedpdf/fonts-kr',
];

function packageFonts(name: string): FontSource[] {
  let dir: string;
  try {
    dir = path.dirname(require.resolve(`${name}/package.json`));
  } catch {
    return [];
  }
  const found: string[] = [];
  const walk = (d: string, depth: number) => {
    for (const entry of readdirSync(d)) {
      const p = path.join(d, entry);
      if (statSync(p).isDirectory()) {
        if (depth < 3 && entry !== 'node_modules') walk(p, depth + 1);
      } else if (/\.(ttf|otf)$/i.test(entry)) found.push(p);
    }
  };
  walk(dir, 0);
  // The regular weight of the family, when the package has several.
  const regular = found.filter((p) => /regular/i.test(path.basename(p)));
  return (regular.length ? regular : found).slice(0, 1).map((p) => ({ path: p }));
}

function pdfjsLiberation(): FontSource[] {
  try {
    const dir = path.dirname(require.resolve('pdfjs-dist/package.json'));
    const p = path.join(dir, 'standard_fonts', 'LiberationSans-Regular.ttf');
    return existsSync(p) ? [{ path: p }] : [];
  } catch {
    return [];
  }
}

let cached: FontSource[] | undefined;

/** Every usable font, most preferred first (found once per process). */
export function availableFonts(): FontSource[] {
  cached ??= [
    ...FONT_PACKAGES.flatMap(packageFonts),
    ...SYSTEM_FONTS.filter((f) => existsSync(f.path)),
    ...pdfjsLiberation(),
  ];
  return cached;
}
