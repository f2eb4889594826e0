import { describe, expect, it } from 'vitest';
import { parseLinkHeader } from './link-header';

describe('parseLinkHeader', () => {
  it('gives one reference per rel value, with hreflang, quoted or not', () => {
    expect(
      parseLinkHeader(
        '<https://a.example/de>; rel="alternate canonical"; hreflang="de", </fr>;rel=alternate;hreflang=fr',
      ),
    ).toEqual([
      { uri: 'https://a.example/de', rel: 'alternate', hreflang: 'de' },
      { uri: 'https://a.example/de', rel: 'canonical', hreflang: 'de' },
      { uri: '/fr', rel: 'alternate', hreflang: 'fr' },
    ]);
  });

  it('keeps commas inside the target and skips references without rel', () => {
    expect(
      parseLinkHeader('<https://a.example/x,y>; rel=canonical, </style.css>; as=style'),
    ).toEqual([{ uri: 'https://a.example/x,y', rel: 'canonical', hreflang: '' }]);
  });
});
