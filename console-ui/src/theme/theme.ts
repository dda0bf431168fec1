/**
 * The light theme of console.md section 9: colours, breakpoints (the mobile breakpoint is md),
 * font weights and the stacking layers of overlays, dialogs and the version banner.
 */
export const breakpoints = { xs: 0, sm: 600, md: 960, lg: 1280, xl: 1920, xxl: 2560 } as const;
export type Breakpoint = keyof typeof breakpoints;

/** Below this width the console uses its phone layout. */
export const mobileBreakpoint: Breakpoint = 'md';

export const theme = {
  colors: {
    primary: '#1f4fd6',
    primaryDark: '#173ba3',
    onPrimary: '#ffffff',
    secondary: '#1f8a9e',
    tertiary: '#2e9d5b',
    error: '#d32f2f',
    warning: '#ef7d00',
    info: '#1e88e5',
    success: '#2e7d32',
    background: '#f4f7fb',
    surface: '#ffffff',
    text: '#17212f',
    textMuted: '#5b6777',
    border: '#d6dde8',
    overlay: 'rgba(15, 23, 42, 0.48)',
  },
  breakpoints,
  fontFamily: "'Roboto', 'Inter', 'Segoe UI', system-ui, 'Liberation Sans', 'DejaVu Sans', sans-serif",
  fontWeights: { regular: 400, medium: 500, semibold: 600 },
  /** Stacking: overlays from 2000, dialogs at 2400, the version banner above them at 2500. */
  layers: { overlay: 2000, dialog: 2400, banner: 2500 },
  dialog: { confirmMaxWidth: 360, maxHeight: '80vh' },
  radius: 8,
} as const;

export type Theme = typeof theme;

/** A media query for widths at or above a breakpoint. */
export function up(breakpoint: Breakpoint): string {
  return `@media (min-width: ${breakpoints[breakpoint]}px)`;
}

/** A media query for the phone layout: widths below the mobile breakpoint. */
export const mobile = `@media (max-width: ${breakpoints[mobileBreakpoint] - 0.02}px)`;

export type Tone = 'primary' | 'success' | 'warning' | 'error' | 'info';
