/// The report page's style sheet, allowed by the Content-Security-Policy through its SHA-256 hash.
enum ReportStyle {
  static let source = #"""
    :root { color-scheme: light dark; --bg: #f5f5f7; --card: #fff; --text: #1d1d1f; --muted: #6e6e73; --line: #d2d2d7; }
    @media (prefers-color-scheme: dark) { :root { --bg: #1c1c1e; --card: #2c2c2e; --text: #f5f5f7; --muted: #a1a1a6; --line: #3a3a3c; } }
    * { box-sizing: border-box; }
    body { margin: 0; font: 15px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--text); }
    header { position: sticky; top: 0; z-index: 1; display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; padding: 12px 20px; background: var(--card); border-bottom: 1px solid var(--line); }
    header h1 { font-size: 17px; margin: 0; overflow-wrap: anywhere; }
    .counts { color: var(--muted); font-size: 13px; }
    .controls { display: flex; gap: 8px; align-items: center; margin-left: auto; font-size: 13px; }
    #cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(280px, 1fr)); gap: 16px; padding: 20px; max-width: 1400px; margin: 0 auto; }
    .card { display: flex; flex-direction: column; background: var(--card); border-radius: 12px; overflow: hidden; border: 1px solid var(--line); min-width: 0; }
    .media { position: relative; display: block; overflow: hidden; background: var(--line); }
    .media .placeholder, .media img { position: absolute; inset: 0; width: 100%; height: 100%; }
    .media img { object-fit: cover; opacity: 0; transition: opacity .25s; }
    .media.loaded img { opacity: 1; }
    .media.broken img { display: none; }
    .body { padding: 10px 14px 12px; display: flex; flex-direction: column; gap: 4px; min-width: 0; }
    .site { display: flex; align-items: center; gap: 6px; color: var(--muted); font-size: 12px; min-width: 0; }
    .site .icon { width: 16px; height: 16px; border-radius: 3px; flex: none; object-fit: cover; }
    .site-name, .domain { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .title { font-size: 15px; margin: 0; font-weight: 600; overflow-wrap: anywhere; display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; }
    .title a { color: inherit; text-decoration: none; }
    .title a:hover { text-decoration: underline; }
    .description { margin: 0; color: var(--muted); font-size: 13px; overflow-wrap: anywhere; display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden; }
    .meta { display: flex; gap: 6px; align-items: center; color: var(--muted); font-size: 12px; min-width: 0; }
    .badge { flex: none; font-size: 11px; font-weight: 600; padding: 1px 6px; border-radius: 6px; background: var(--line); color: var(--text); }
    .media .badge { position: absolute; left: 8px; bottom: 8px; background: rgba(0, 0, 0, .7); color: #fff; }
    .badge.stale { background: #ffd60a; color: #1d1d1f; }
    .badge.failed { background: #ff453a; color: #fff; }
    .card.failed { border-color: #ff453a; }
    .card.stale { border-color: #ffd60a; }
    .error { margin: 4px 0 0; font-size: 12px; color: var(--muted); overflow-wrap: anywhere; }
    .error code { color: #ff453a; margin-right: 2px; }
    .note { margin: 4px 0 0; font-size: 12px; color: var(--muted); overflow-wrap: anywhere; }
    .note code { margin-right: 2px; }
    #more { height: 1px; }
    """#
}
