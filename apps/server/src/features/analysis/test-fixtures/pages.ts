/** Local pages with known defects, and one clean page, for the analysis tests. */
const words = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => ['content', 'garden', 'writing', 'inkwell', 'paper'][i % 5],
  ).join(' ');

/** Text that must never reach the model: the prompt carries findings, not the page. */
export const PAGE_SECRET = 'ZEBRA-PAGE-MARKER-42';

export function cleanPage(origin: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Growing a writing garden | Inkwell</title>
  <meta name="description" content="How to grow a writing garden: notes, drafts and a steady habit, explained step by step for new writers.">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="canonical" href="${origin}/clean">
  <link rel="alternate" hreflang="en" href="${origin}/clean">
  <link rel="alternate" hreflang="x-default" href="${origin}/clean">
  <meta property="og:title" content="Growing a writing garden">
  <meta property="og:description" content="Notes, drafts and a steady habit.">
  <meta property="og:image" content="${origin}/cover.png">
  <meta name="twitter:card" content="summary_large_image">
  <script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Growing a writing garden"}</script>
</head>
<body>
  <header><a href="#main">Skip to content</a></header>
  <main id="main">
    <h1>Growing a writing garden</h1>
    <h2>Notes</h2>
    <p>${words(180)} ${PAGE_SECRET}</p>
    <img src="/cover.png" alt="A notebook beside a plant">
    <h2>Drafts</h2>
    <p>${words(180)}</p>
    <p><a href="/guide">Read the complete drafting guide</a></p>
    <form><label for="q">Search</label><input id="q" type="search"><button type="submit">Search</button></form>
  </main>
  <footer><p>Inkwell</p></footer>
</body>
</html>`;
}

export function defectsPage(): string {
  return `<!doctype html>
<html>
<head>
  <meta name="robots" content="noindex, nofollow">
  <link rel="canonical" href="/relative-canonical">
  <link rel="alternate" hreflang="english" href="/en">
  <script type="application/ld+json">{"@context": "https://schema.org", "@type": "Article",</script>
  <script>document.title = 'set by a script that must not run';</script>
</head>
<body>
  <h1>First heading</h1>
  <h1>Second heading</h1>
  <h4>Skipped levels</h4>
  <img src="/photo.jpg">
  <p><a href="/more-details">click here</a></p>
  <p><a href="javascript:void(0)">Open the menu</a></p>
  <p><a onclick="go()">Scripted link</a></p>
  <button></button>
  <input type="text">
  <p>Too little text.</p>
</body>
</html>`;
}

export const VALID_ROBOTS =
  'User-agent: *\nDisallow: /private/\nSitemap: https://example.com/sitemap.xml\n';
export const INVALID_ROBOTS = 'Disallow: /nogroup\nUser-agent: *\nNoise here\nSitemap: not-a-url\n';
export const BLOCKING_ROBOTS = 'User-agent: *\nDisallow: /\n';

/** Contrast only a browser can measure: the colour comes from a stylesheet fetched through us. */
export function lowContrastPage(): string {
  return `<!doctype html><html lang="en"><head><title>Faint text page</title>
<link rel="stylesheet" href="/style.css"></head>
<body><main><h1>Faint</h1><p class="faint">This grey text is hard to read on white.</p></main></body></html>`;
}
