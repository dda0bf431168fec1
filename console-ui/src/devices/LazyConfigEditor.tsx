import { lazy, Suspense } from 'react';
import { useMessages } from '../i18n/messages';
import type { ConfigEditorProps } from './ConfigEditor';

// The editor brings the whole config schema (every asset, loop and command): it loads with the
// first configuration shown, not with the console's first page.
const ConfigEditor = lazy(async () => ({ default: (await import('./ConfigEditor')).ConfigEditor }));

/** The config editor, loaded when first shown. */
export function LazyConfigEditor(props: ConfigEditorProps) {
  const t = useMessages();
  return (
    <Suspense fallback={<p>{t('device.list.loading')}</p>}>
      <ConfigEditor {...props} />
    </Suspense>
  );
}
