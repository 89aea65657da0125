import { describe, expect, it } from 'vitest';
import { llmsTxt } from './crawler-files.js';
import { sitemapIndexXml, xmlEscape } from './sitemap.js';

describe('sitemap', () => {
  it('names each file of the index once, from 1, with its lastmod', () => {
    const part = { after: null, last: null, urls: 1, lastmod: '2026-04-02' };
    const index = sitemapIndexXml({ parts: [part, { ...part, lastmod: null }] }, 'https://t.example');
    expect(index).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
        '<sitemap><loc>https://t.example/sitemaps/1.xml</loc><lastmod>2026-04-02</lastmod></sitemap>\n' +
        '<sitemap><loc>https://t.example/sitemaps/2.xml</loc></sitemap>\n</sitemapindex>\n',
    );
  });

  it('escapes what XML would misread', () => {
    expect(xmlEscape(`https://t.example/?a=1&b=<2>"'`)).toBe('https://t.example/?a=1&amp;b=&lt;2&gt;&quot;&apos;');
  });
});

describe('llms.txt', () => {
  it('links to the pages and the sitemap, and lists no package', () => {
    const text = llmsTxt('https://t.example', 1);
    expect(text).toContain('[Sitemap](https://t.example/sitemap.xml)');
    expect(Buffer.byteLength(text)).toBeLessThan(8_192);
  });
});
