import { defaultTheme, type RaThemeOptions } from 'react-admin';

/**
 * react-admin's default theme with a visible keyboard focus everywhere (MUI's own is faint on
 * some controls) and a contrast that passes axe on every screen.
 */
export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: { ...defaultTheme.palette, primary: { main: '#1a4f8b' }, secondary: { main: '#1a4f8b' } },
  components: {
    ...defaultTheme.components,
    // react-admin names its row checkboxes with `aria-label` on the Checkbox, which MUI 9 puts on
    // the decorative wrapper (where ARIA forbids it) and not on the input (left without a name):
    // the name moves to the input, where screen readers and axe look for it.
    // react-admin's "nothing here yet" text and its full-page "loading" text are the palette's
    // disabled grey, below 4.5:1 on the page.
    RaEmpty: {
      styleOverrides: {
        root: { '& .RaEmpty-message': { color: 'rgba(0, 0, 0, 0.68)' }, '& .RaEmpty-icon': { opacity: 0.6 } },
      },
    },
    RaLoading: { styleOverrides: { root: { '& .RaLoading-message': { color: 'rgba(0, 0, 0, 0.68)' } } } },
    // On a phone the language button is its name alone, without its two icons, so that the
    // screen's title beside it is not cut off.
    RaLocalesMenuButton: {
      styleOverrides: {
        root: {
          // Below MUI's `sm` breakpoint (600 px), as theme.breakpoints.down('sm') writes it.
          '@media (max-width: 599.95px)': {
            '& .MuiButton-startIcon, & .MuiButton-endIcon': { display: 'none' },
          },
        },
      },
    },
    // A sort control is a target: at least 24 px each way (WCAG 2.2 target size).
    MuiTableSortLabel: { styleOverrides: { root: { minHeight: 24, minWidth: 24 } } },
    MuiCheckbox: {
      defaultProps: {
        slotProps: {
          root: (ownerState: Record<string, unknown>) =>
            ownerState['aria-label'] === undefined ? {} : { 'aria-label': undefined },
          input: (ownerState: Record<string, unknown>) =>
            ownerState['aria-label'] !== undefined
              ? { 'aria-label': String(ownerState['aria-label']) }
              : ownerState['onChange'] === undefined && ownerState['checked'] === false
                ? // The grey rows a list shows while it loads (react-admin's DatagridLoading) hold
                  // checkboxes with neither a name nor an action: a placeholder, kept out of the
                  // accessibility tree and the tab order.
                  { 'aria-hidden': true, tabIndex: -1, disabled: true }
                : {},
        },
      },
    },
    MuiButtonBase: {
      styleOverrides: {
        root: { '&.Mui-focusVisible': { outline: '3px solid #e8a400', outlineOffset: '2px' } },
      },
    },
  },
};
