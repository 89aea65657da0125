import { describe, expect, it } from 'vitest';
import { SITEMAP_MAX_URLS, sitemapPartXml, sitemapXml } from './crawler-files.js';

const urls = (n: number) => Array.from({ length: n }, (_, i) => ({ loc: `https://t.example/npm/p${i}` }));

describe('sitemap', () => {
  it('stays one urlset up to 50,000 URLs and becomes an index one past it', () => {
    expect(sitemapXml(urls(SITEMAP_MAX_URLS), 'https://t.example')).toContain('<urlset');
    expect(sitemapPartXml(urls(SITEMAP_MAX_URLS), 1)).toBeNull();
    const index = sitemapXml(urls(SITEMAP_MAX_URLS + 1), 'https://t.example');
    expect(index).toContain('<sitemapindex');
    expect(index.match(/<sitemap>/g)).toHaveLength(2);
    expect(sitemapPartXml(urls(SITEMAP_MAX_URLS + 1), 2)).toContain('<loc>https://t.example/npm/p50000</loc>');
    expect(sitemapPartXml(urls(SITEMAP_MAX_URLS + 1), 3)).toBeNull();
  });

  it('escapes what XML would misread', () => {
    expect(sitemapXml([{ loc: 'https://t.example/?a=1&b=<2>' }], 'https://t.example')).toContain(
      '<loc>https://t.example/?a=1&amp;b=&lt;2&gt;</loc>',
    );
  });
});
