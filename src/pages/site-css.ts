/**
 * The one stylesheet, served as /assets/site.css. Kept in a module rather than a file on disk so the
 * build carries it into dist/ with the code; pages carry no inline style (a CSP forbids it).
 * Colours are checked for WCAG AA contrast on both schemes; states are never told by colour alone
 * (each badge carries its name).
 */
export const SITE_CSS = `
:root {
  --ink: #1c1f24; --muted: #4d5560; --paper: #fdfcf9; --rule: #d9d4c7; --panel: #f3f0e8;
  --accent: #1d4ed8; --alive: #166534; --dormant: #854d0e; --abandoned: #9a3412; --archived: #5b21b6;
  --deleted: #991b1b; --eol: #7c2d12; --unknown: #374151;
  --font: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --mono: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;
}
@media (prefers-color-scheme: dark) {
  :root {
    --ink: #e8e6e1; --muted: #b3b8bf; --paper: #15171a; --rule: #3a3d42; --panel: #1f2226;
    --accent: #93b4ff; --alive: #86efac; --dormant: #fcd34d; --abandoned: #fdba74; --archived: #c4b5fd;
    --deleted: #fca5a5; --eol: #fdba74; --unknown: #d1d5db;
  }
}
* { box-sizing: border-box; }
html { font-family: var(--font); color: var(--ink); background: var(--paper); line-height: 1.55; }
body { margin: 0; }
a { color: var(--accent); text-underline-offset: 0.15em; }
a:focus-visible, button:focus-visible, input:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--paper); padding: 0.5rem; z-index: 1; }
.site-header, main, .site-footer { max-width: 52rem; margin: 0 auto; padding: 0 1.25rem; }
.site-header { display: flex; flex-wrap: wrap; align-items: center; gap: 0.75rem 1.5rem; padding-top: 1rem; padding-bottom: 1rem; border-bottom: 1px solid var(--rule); }
.brand { font-weight: 700; font-size: 1.25rem; text-decoration: none; color: var(--ink); letter-spacing: 0.01em; }
.site-header nav ul { display: flex; flex-wrap: wrap; gap: 1rem; list-style: none; margin: 0; padding: 0; }
.search { display: flex; gap: 0.5rem; margin-left: auto; }
.search input { font: inherit; padding: 0.35rem 0.6rem; border: 1px solid var(--muted); border-radius: 4px; background: var(--paper); color: var(--ink); min-width: 12rem; }
.search button { font: inherit; padding: 0.35rem 0.9rem; border: 1px solid var(--accent); border-radius: 4px; background: var(--accent); color: var(--paper); cursor: pointer; }
.as-of { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin: 1rem 0; }
.as-of input { font: inherit; padding: 0.3rem 0.5rem; border: 1px solid var(--muted); border-radius: 4px; background: var(--paper); color: var(--ink); }
.as-of button { font: inherit; padding: 0.3rem 0.8rem; border: 1px solid var(--accent); border-radius: 4px; background: var(--paper); color: var(--accent); cursor: pointer; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
main { padding-top: 1.5rem; padding-bottom: 2.5rem; }
h1 { font-size: 1.9rem; line-height: 1.2; margin: 0.5rem 0 1rem; }
h2 { font-size: 1.3rem; margin: 2.2rem 0 0.6rem; padding-top: 0.4rem; border-top: 1px solid var(--rule); }
h3 { font-size: 1.05rem; margin: 1.2rem 0 0.3rem; }
.lede { font-size: 1.1rem; color: var(--muted); max-width: 40rem; }
.facts { display: grid; grid-template-columns: minmax(10rem, max-content) 1fr; gap: 0.35rem 1.25rem; margin: 1rem 0; padding: 1rem 1.25rem; background: var(--panel); border-radius: 6px; }
.facts dt { font-weight: 600; }
/* Ids, addresses and URLs are long unbroken words: they wrap rather than push the page wider than a phone. */
.facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
h1, .changes li, .results li { overflow-wrap: anywhere; }
.state { display: inline-block; font-weight: 700; padding: 0 0.45rem; border: 2px solid currentColor; border-radius: 4px; }
.state-alive { color: var(--alive); } .state-dormant { color: var(--dormant); } .state-abandoned { color: var(--abandoned); }
.state-archived { color: var(--archived); } .state-deleted { color: var(--deleted); } .state-eol { color: var(--eol); }
.state-unknown-stale, .state-not_observed { color: var(--unknown); }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
caption { text-align: left; color: var(--muted); padding-bottom: 0.4rem; }
th, td { text-align: left; padding: 0.3rem 0.6rem; border-bottom: 1px solid var(--rule); vertical-align: top; }
thead th { border-bottom: 2px solid var(--ink); }
.table-scroll { overflow-x: auto; }
.timeline { width: 100%; height: auto; margin: 0.5rem 0; }
/* Each state's pattern (timeline.tsx) draws in its colour on the paper: told apart by shape, not hue alone. */
.timeline-pattern .ground { fill: var(--paper); }
.timeline-pattern .ink-alive { fill: var(--alive); stroke: var(--alive); } .timeline-pattern .ink-dormant { fill: var(--dormant); stroke: var(--dormant); }
.timeline-pattern .ink-abandoned { fill: var(--abandoned); stroke: var(--abandoned); } .timeline-pattern .ink-archived { fill: var(--archived); stroke: var(--archived); }
.timeline-pattern .ink-deleted { fill: var(--deleted); stroke: var(--deleted); } .timeline-pattern .ink-eol { fill: var(--eol); stroke: var(--eol); }
.timeline-pattern .ink-not_observed, .timeline-pattern .ink-unknown-stale { fill: var(--rule); stroke: var(--muted); }
.legend { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; list-style: none; padding: 0; margin: 0.25rem 0 0; font-size: 0.9rem; }
.qa dt { font-weight: 700; margin-top: 1rem; }
.qa dd { margin: 0.2rem 0 0; }
code, .mono { font-family: var(--mono); font-size: 0.92em; overflow-wrap: anywhere; }
pre { background: var(--panel); padding: 0.8rem 1rem; border-radius: 6px; overflow-x: auto; }
/* The badge's Markdown wraps rather than scrolls: a scroll box would need its own keyboard stop. */
pre.badge-markdown, pre.key { white-space: pre-wrap; overflow-wrap: anywhere; }
.note { border-left: 4px solid var(--accent); padding: 0.4rem 0.9rem; background: var(--panel); }
.steps { padding-left: 1.4rem; }
.steps li { margin: 0.5rem 0; }
.steps .status { font-weight: 700; }
.ok { color: var(--alive); } .fail { color: var(--deleted); } .pending { color: var(--muted); }
.result { font-size: 1.2rem; font-weight: 700; margin: 1rem 0; }
.changes { list-style: none; padding: 0; }
.changes li { padding: 0.3rem 0; border-bottom: 1px solid var(--rule); }
.site-footer { border-top: 1px solid var(--rule); padding-top: 1rem; padding-bottom: 2rem; color: var(--muted); font-size: 0.92rem; }
/* A state's name is one word: it never breaks inside (overflow-wrap: anywhere on code would split unknown-stale). */
code.state-name, .state { white-space: nowrap; overflow-wrap: normal; }
.version { font-family: var(--mono); font-size: 0.92em; }
.results, .operations { list-style: none; padding: 0; }
.operations li { padding: 0.2rem 0; }
.results li { padding: 0.35rem 0; border-bottom: 1px solid var(--rule); }
.results .kind { color: var(--muted); font-size: 0.92rem; margin-left: 0.4rem; }
main > .search { margin: 1rem 0; }
.timeline-dates { display: flex; justify-content: space-between; color: var(--muted); font-size: 0.9rem; margin: 0; }
.legend svg { width: 1.6rem; height: 0.9rem; vertical-align: middle; margin-right: 0.3rem; border: 1px solid var(--muted); }
.check-form label { display: block; font-weight: 600; margin: 0.9rem 0 0.3rem; }
.check-form textarea { display: block; width: 100%; font-family: var(--mono); font-size: 0.9rem; padding: 0.5rem; border: 1px solid var(--muted); border-radius: 4px; background: var(--paper); color: var(--ink); }
.check-form textarea:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.check-form input[type=file] { max-width: 100%; }
.hint { color: var(--muted); font-size: 0.92rem; }
.check-form button, .downloads button { font: inherit; padding: 0.4rem 1rem; border: 1px solid var(--accent); border-radius: 4px; background: var(--accent); color: var(--paper); cursor: pointer; }
.downloads { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 1rem 0; }
.downloads button + button { background: var(--paper); color: var(--accent); }
.check-results th[scope=row], .check-results td { overflow-wrap: anywhere; }
.check-results .kind { color: var(--muted); font-size: 0.85rem; }
.check-problem h2 { border-top: 0; margin-top: 0.3rem; }
@media (max-width: 40rem) {
  /* The results table becomes one block per component on a phone: each cell under its column's name. */
  .check-results thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  .check-results tr { display: block; padding: 0.5rem 0; border-bottom: 1px solid var(--rule); }
  .check-results th[scope=row], .check-results td { display: block; border: 0; padding: 0.1rem 0; }
  .check-results td::before { content: attr(data-label) ": "; font-weight: 600; color: var(--muted); }
  .search { margin-left: 0; width: 100%; } .search input { flex: 1; min-width: 0; } .facts { grid-template-columns: 1fr; }
  /* The series table fits a phone's width: narrow cells, long notices wrapped, nothing to scroll sideways to. */
  .table-scroll th, .table-scroll td { padding: 0.25rem 0.2rem; font-size: 0.85rem; }
  /* Dates and state names stay whole; the last column (a notice) takes what width is left and wraps
     at spaces and after the dots and slashes BreakableText marks, inside a part only when the part
     is longer than the line (a hash). */
  .table-scroll td { white-space: nowrap; }
  .table-scroll td:last-child { white-space: normal; overflow-wrap: anywhere; }
  /* Headings are words: they wrap at their spaces, never inside one. */
  .table-scroll th { white-space: normal; font-size: 0.8rem; }
  .table-scroll caption { font-size: 0.9rem; }
}
`;
