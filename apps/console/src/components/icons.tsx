// Line icons for the navigation (inline SVG: no icon library).
const base = { width: 18, height: 18, viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 1.8, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

export const LibraryIcon = () => (
  <svg {...base} aria-hidden="true">
    <path d="M4 5a2 2 0 0 1 2-2h9l5 5v11a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2z" />
    <path d="M14 3v5h5M8 13h8M8 17h5" />
  </svg>
);
export const EyeIcon = () => (
  <svg {...base} aria-hidden="true">
    <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
    <circle cx="12" cy="12" r="3" />
  </svg>
);
export const RecallIcon = () => (
  <svg {...base} aria-hidden="true">
    <circle cx="11" cy="11" r="6" />
    <path d="m20 20-4.5-4.5M8.5 11h5M11 8.5v5" />
  </svg>
);
export const IndexIcon = () => (
  <svg {...base} aria-hidden="true">
    <path d="M4 6h16M4 12h10M4 18h7" />
    <path d="M17 14v6M14 17h6" />
  </svg>
);
export const SettingsIcon = () => (
  <svg {...base} aria-hidden="true">
    <path d="M4 7h10M18 7h2M4 17h4M12 17h8" />
    <circle cx="16" cy="7" r="2" />
    <circle cx="10" cy="17" r="2" />
  </svg>
);
export const MoonIcon = () => (
  <svg {...base} aria-hidden="true">
    <path d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z" />
  </svg>
);
export const SunIcon = () => (
  <svg {...base} aria-hidden="true">
    <circle cx="12" cy="12" r="4" />
    <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
  </svg>
);
export const Logo = () => (
  <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
    <rect x="2" y="2" width="20" height="20" rx="6" fill="var(--accent)" />
    <path d="M8 8h8M8 12h6M8 16h8" stroke="var(--accent-fg)" strokeWidth="2" strokeLinecap="round" />
  </svg>
);

// Small inline marks for badges and toggles (emoji need a colour font the host may not have).
const small = { ...base, width: 13, height: 13, strokeWidth: 2 } as const;
export const PinIcon = () => (
  <svg {...small} aria-hidden="true">
    <path d="M9 4h6l-1 5 3 3v2H7v-2l3-3z" />
    <path d="M12 14v6" />
  </svg>
);
export const LockIcon = () => (
  <svg {...small} aria-hidden="true">
    <rect x="5" y="11" width="14" height="9" rx="2" />
    <path d="M8 11V8a4 4 0 0 1 8 0v3" />
  </svg>
);
