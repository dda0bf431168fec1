import { lazy, Suspense, type ComponentType } from 'react';
import { useMessages } from '../i18n/messages';

/**
 * A screen that loads when first shown, as its own chunk, not with the console's first page (its
 * initial JavaScript stays for the device list people land on): `load` imports the module and
 * picks the component.
 */
export function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Screen = lazy(async () => ({ default: await load() }));
  return function LazyScreen(props: P) {
    const t = useMessages();
    return (
      <Suspense fallback={<p>{t('loading')}</p>}>
        <Screen {...props} />
      </Suspense>
    );
  };
}
