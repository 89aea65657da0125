/**
 * Headers for every HTML answer (pages load their scripts and styles as files from /assets/; no
 * inline script runs). A page that needs an inline script's hash sets its own
 * Content-Security-Policy, which these never overwrite.
 */
export const HTML_SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  [
    'Content-Security-Policy',
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
      "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  ],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Frame-Options', 'DENY'],
];
