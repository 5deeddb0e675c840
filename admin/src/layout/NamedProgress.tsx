import { useCallback, type ReactNode } from 'react';
import { Loading, useTranslate } from 'react-admin';
import { ThemeProvider, type Theme } from '@mui/material/styles';

/**
 * Every progress bar and circle inside gets a name, in the admin's language: MUI's have the
 * progressbar role and no name, which axe counts as a serious violation (aria-progressbar-name).
 * react-admin shows them while a screen's code loads (its full-page Loading), while a reference
 * field's record loads (a bar in each row) and in the toolbar; none of them takes a name of its own.
 */
export function NamedProgress({ children }: { children: ReactNode }) {
  const translate = useTranslate();
  const label = translate('ra.page.loading');
  // The same function while the language stays: a new one makes MUI rebuild the theme for every
  // component inside.
  const named = useCallback(
    (outer: Theme): Theme => ({
      ...outer,
      components: {
        ...outer.components,
        MuiCircularProgress: {
          ...outer.components?.MuiCircularProgress,
          defaultProps: { ...outer.components?.MuiCircularProgress?.defaultProps, 'aria-label': label },
        },
        MuiLinearProgress: {
          ...outer.components?.MuiLinearProgress,
          defaultProps: { ...outer.components?.MuiLinearProgress?.defaultProps, 'aria-label': label },
        },
      },
    }),
    [label],
  );
  return <ThemeProvider theme={named}>{children}</ThemeProvider>;
}

/** The page shown while the admin starts (the sign-in check): react-admin's, with a named circle. */
export function StartingPage() {
  return (
    <NamedProgress>
      <Loading />
    </NamedProgress>
  );
}
