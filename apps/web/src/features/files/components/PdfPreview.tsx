import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { PREVIEW_ZOOM } from '@inkwell/contract';
import * as pdfjs from 'pdfjs-dist';

// The worker is a separate file served from our origin (CSP: worker-src 'self' blob:).
pdfjs.GlobalWorkerOptions.workerSrc = new URL(
  'pdfjs-dist/build/pdf.worker.min.mjs',
  import.meta.url,
).toString();

const MAX_PAGES = 30;

/** A pdf rendered page by page with pdf.js; zoom 16 is 100 %. */
export function PdfPreview({ data, zoom }: { data: ArrayBuffer; zoom: number }) {
  const container = useRef<HTMLDivElement>(null);
  const [error, setError] = useState(false);
  const [pages, setPages] = useState(0);

  useEffect(() => {
    let cancelled = false;
    // pdf.js takes ownership of the buffer it is given: hand it a copy.
    const task = pdfjs.getDocument({ data: new Uint8Array(data.slice(0)) });
    (async () => {
      const doc = await task.promise;
      const root = container.current;
      if (cancelled || !root) return;
      root.replaceChildren();
      setPages(doc.numPages);
      for (let n = 1; n <= Math.min(doc.numPages, MAX_PAGES); n++) {
        const page = await doc.getPage(n);
        if (cancelled) return;
        const viewport = page.getViewport({ scale: zoom / PREVIEW_ZOOM.default });
        const canvas = document.createElement('canvas');
        canvas.width = viewport.width;
        canvas.height = viewport.height;
        canvas.setAttribute('role', 'img');
        canvas.setAttribute('aria-label', `Page ${n}`);
        canvas.style.display = 'block';
        canvas.style.margin = '0 auto 8px';
        canvas.style.maxWidth = 'none';
        root.appendChild(canvas);
        const ctx = canvas.getContext('2d');
        if (ctx) await page.render({ canvasContext: ctx, viewport }).promise;
      }
    })().catch(() => {
      if (!cancelled) setError(true);
    });
    return () => {
      cancelled = true;
      void task.destroy();
    };
  }, [data, zoom]);

  if (error) return <Typography color="error">The pdf could not be displayed.</Typography>;
  return (
    <Box>
      {pages > MAX_PAGES && (
        <Typography variant="caption" color="text.secondary" component="p">
          {`The first ${MAX_PAGES} of ${pages} pages are shown.`}
        </Typography>
      )}
      <Box ref={container} sx={{ overflowX: 'auto', bgcolor: 'action.hover', p: 1 }} />
    </Box>
  );
}
