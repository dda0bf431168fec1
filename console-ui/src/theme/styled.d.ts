import 'styled-components';
import type { Theme } from './theme';

declare module 'styled-components' {
  // The console's theme is the one DefaultTheme every styled component sees.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface DefaultTheme extends Theme {}
}
