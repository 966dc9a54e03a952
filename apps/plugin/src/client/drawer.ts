// Where the plugin's own console drawer goes on hosts without a right-sidebar tab. Pure, except
// reserveBeside, which touches one style property of the host page and gives it back.
//
// The host lays out three columns (packages/client/ui-layout/src/client/columns.ts, 0.1.1-rc.2):
// the left sidebar (a 56 px rail at its narrowest), the conversation (at least 640 px) and a details
// panel of 300-520 px, shown beside the conversation only while all three fit; below that the
// host closes the panel rather than lay it over the messages. The drawer follows the same rule:
//   beside — where the host would put a panel beside the messages, the drawer takes a column of
//            its own: the host page is narrowed by the drawer's width (its frame watches its own
//            box and re-solves its columns), so nothing of the conversation is under the drawer;
//   over   — narrower windows have no room beside the messages: the drawer is a sheet over them
//            (closed with 关闭 or the header button).

/** The host's column geometry (columns.ts): the narrowest left sidebar, the conversation floor, the panel range. */
export const HOST_SIDEBAR_RAIL = 56;
export const HOST_CENTER_MIN = 640;
export const HOST_PANEL_MIN = 300;
export const HOST_PANEL_MAX = 520;

export interface DrawerPlacement {
  mode: 'beside' | 'over';
  /** The drawer's width in px. */
  width: number;
}

/** The drawer for a window `viewport` px wide. */
export function drawerPlacement(viewport: number): DrawerPlacement {
  const room = viewport - HOST_SIDEBAR_RAIL - HOST_CENTER_MIN;
  if (room >= HOST_PANEL_MIN) {
    const wanted = Math.round(viewport * 0.4);
    return { mode: 'beside', width: Math.max(HOST_PANEL_MIN, Math.min(wanted, HOST_PANEL_MAX, room)) };
  }
  return { mode: 'over', width: Math.min(viewport, Math.max(HOST_PANEL_MIN, Math.round(viewport * 0.7))) };
}

interface StyledElement {
  style: { marginRight: string };
}

interface PageLike {
  getElementById(id: string): StyledElement | null;
  body?: StyledElement | null;
}

/**
 * Narrows the host page by `width` px on the right (the web UI mounts in #root), so the drawer sits
 * beside the conversation; returns what puts the page back as it was.
 */
export function reserveBeside(page: PageLike, width: number): () => void {
  const target = page.getElementById('root') ?? page.body ?? null;
  if (!target) return () => {};
  const before = target.style.marginRight;
  target.style.marginRight = `${width}px`;
  return () => {
    target.style.marginRight = before;
  };
}
