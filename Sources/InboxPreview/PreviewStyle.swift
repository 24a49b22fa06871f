/// The preview's one stylesheet: InboxKit's cells at phone width, light and dark. Every class is
/// prefixed `ik-` so a fragment can sit in a host's page; the theme follows the nearest `data-theme`.
public enum PreviewStyle {
  public static let css = [palette, page, cells, media, carousel, buttons, notes].joined()

  static let palette = """
    :root,[data-theme=light]{color-scheme:light;--ik-bg:#f2f2f7;--ik-card:#fff;--ik-text:#1c1c1e;\
    --ik-muted:#6c6c70;--ik-accent:#007aff;--ik-line:#d1d1d6;--ik-ph:#e5e5ea;--ik-chip:#eef4ff;\
    --ik-warn-bg:#fff4e5;--ik-warn:#7a4300;--ik-note-bg:#fdecea;--ik-note:#8f1d1d}\
    [data-theme=dark]{color-scheme:dark;--ik-bg:#000;--ik-card:#1c1c1e;--ik-text:#f2f2f7;\
    --ik-muted:#a1a1a6;--ik-accent:#0a84ff;--ik-line:#38383a;--ik-ph:#2c2c2e;--ik-chip:#1d2a3d;\
    --ik-warn-bg:#33260f;--ik-warn:#ffd08a;--ik-note-bg:#3b1616;--ik-note:#ffb4ab}

    """

  static let page = """
    *,*::before,*::after{box-sizing:border-box}\
    html,body{margin:0;background:var(--ik-bg)}\
    .ik-root,.ik-feed{color:var(--ik-text);background:var(--ik-bg);\
    font:15px/1.35 -apple-system,system-ui,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;\
    overflow-wrap:anywhere}\
    .ik-feed{max-width:430px;margin:0 auto;padding:12px;display:flex;flex-direction:column;gap:14px}\
    .ik-head h1{font-size:22px;margin:4px 0 0}.ik-head p{margin:2px 0 0;color:var(--ik-muted);font-size:13px}\
    .ik-entry{display:flex;flex-direction:column;gap:6px;min-width:0}\
    @media (min-width:760px){.ik-feed{max-width:900px}.ik-entry{display:grid;grid-template-columns:390px 1fr;\
    gap:16px;align-items:start}}

    """

  static let cells = """
    .ik-card{position:relative;background:var(--ik-card);border-radius:14px;overflow:hidden;min-width:0;\
    box-shadow:0 1px 3px rgba(0,0,0,.14)}\
    .ik-text{padding:10px 14px 12px;min-width:0}\
    .ik-title{font-size:16px;font-weight:600;margin:0}\
    .ik-body{margin:3px 0 0}\
    .ik-date{display:block;margin-top:6px;color:var(--ik-muted);font-size:12px}\
    .ik-row{display:flex;gap:12px;align-items:flex-start;padding:12px 14px 4px 18px}\
    .ik-row .ik-text{padding:0 26px 8px 0;flex:1}\
    .ik-avatar{flex:none;width:44px;height:44px;border-radius:50%;display:grid;place-items:center;\
    color:#fff;font-size:20px;font-weight:600}\
    .ik-unread{position:absolute;z-index:2;top:8px;left:7px;width:9px;height:9px;border-radius:50%;\
    background:var(--ik-accent);box-shadow:0 0 0 2px var(--ik-card)}\
    .ik-pin{position:absolute;z-index:2;top:8px;right:8px;width:24px;height:24px;border-radius:50%;\
    display:grid;place-items:center;color:#fff;background:#ff9500}\
    .ik-refusal{margin:0;padding:12px 14px;border-radius:14px;background:var(--ik-note-bg);color:var(--ik-note)}\
    .ik-swipe{display:flex;justify-content:flex-end;margin-top:4px}\
    .ik-delete{border:0;border-radius:8px;padding:5px 12px;background:#ff3b30;color:#fff;font:inherit;font-size:13px;\
    font-weight:600}\
    .ik-refresh{display:flex;justify-content:center;margin:0 0 10px}\
    .ik-refresh-control{display:flex;align-items:center;gap:6px;border:0;border-radius:16px;padding:5px 14px;\
    background:var(--ik-card);color:var(--ik-muted);font:inherit;font-size:13px;box-shadow:0 0 0 1px var(--ik-line)}

    """

  static let media = """
    .ik-media{display:block;width:100%;height:auto;aspect-ratio:2/1;object-fit:cover;\
    background:var(--ik-ph);color:var(--ik-muted);font-size:13px;overflow:hidden}\
    .ik-missing{display:grid;place-items:center;padding:8px;text-align:center}\
    .ik-poster{position:relative;display:block;color:#fff}.ik-poster .ik-media{aspect-ratio:16/9}\
    .ik-blank{background:#111}\
    .ik-play{position:absolute;left:50%;top:50%;width:60px;height:60px;margin:-30px 0 0 -30px;border-radius:50%;\
    display:grid;place-items:center;background:rgba(0,0,0,.55);box-shadow:0 0 0 2px rgba(255,255,255,.85)}\
    .ik-play svg{margin-left:4px}\
    .ik-wallet-bar{padding:0 14px 14px}\
    .ik-wallet-add{display:flex;align-items:center;justify-content:center;gap:8px;height:44px;border-radius:8px;\
    background:#000;color:#fff;font-weight:600;text-decoration:none;box-shadow:0 0 0 1px var(--ik-line)}

    """

  static let carousel = """
    .ik-strip{display:flex;overflow-x:auto;overflow-y:hidden;scroll-snap-type:x mandatory;\
    overscroll-behavior-x:contain;scrollbar-width:none}.ik-strip::-webkit-scrollbar{display:none}\
    .ik-slide{position:relative;flex:0 0 100%;min-width:0;scroll-snap-align:start;scroll-snap-stop:always}\
    .ik-slide-tap{position:relative;display:block;width:100%;margin:0;padding:0;border:0;background:none;\
    color:#fff;font:inherit;text-align:left;text-decoration:none;cursor:pointer}\
    .ik-caption{position:absolute;left:0;right:0;bottom:0;padding:28px 14px 30px;font-weight:600;\
    background:linear-gradient(transparent,rgba(0,0,0,.65))}\
    .ik-indicator{position:absolute;left:0;right:0;bottom:8px;margin:0;display:flex;justify-content:center;\
    align-items:center;gap:8px;pointer-events:none;color:#fff;font-size:11px}\
    .ik-dots{display:flex;gap:6px}.ik-dots i{width:7px;height:7px;border-radius:50%;background:rgba(255,255,255,.5)}\
    .ik-dots i.ik-on{background:#fff}\
    .ik-position{position:absolute;right:10px;padding:1px 6px;border-radius:8px;background:rgba(0,0,0,.45)}

    """

  static let buttons = """
    .ik-buttons{display:flex;gap:8px;padding:2px 14px 12px}\
    .ik-cta-cell{flex:1 1 0;min-width:0;display:flex;flex-direction:column;gap:2px}\
    .ik-cta{display:block;width:100%;padding:8px 6px;border:0;border-radius:8px;background:var(--ik-chip);\
    color:var(--ik-accent);font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer;\
    white-space:nowrap;overflow:hidden;text-overflow:ellipsis}\
    .ik-cta-link{background:var(--ik-accent);color:#fff}\
    .ik-cta:hover{filter:brightness(.92)}\
    .ik-cta-action{color:var(--ik-muted);font-size:11px;text-align:center;white-space:nowrap;overflow:hidden;\
    text-overflow:ellipsis}

    """

  static let notes = """
    .ik-notes{font-size:12px;color:var(--ik-muted);min-width:0}\
    .ik-notes p,.ik-notes ul{margin:0 0 4px}\
    .ik-degraded{padding:6px 10px;border-radius:8px;background:var(--ik-note-bg);color:var(--ik-note);font-weight:600}\
    .ik-warnings{list-style:none;padding:6px 10px;border-radius:8px;background:var(--ik-warn-bg);color:var(--ik-warn)}\
    .ik-warnings li+li{margin-top:3px}.ik-warnings code{font-weight:600}\
    .ik-meta b{color:var(--ik-text)}

    """
}
