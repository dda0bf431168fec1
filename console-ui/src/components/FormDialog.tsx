import { useCallback, useContext, useEffect, useId, type ReactNode } from 'react';
import { UNSAFE_DataRouterContext as DataRouterContext, useBlocker } from 'react-router-dom';
import { Form, Formik, type FormikHelpers, type FormikProps, type FormikValues } from 'formik';
import type { AnyObjectSchema } from 'yup';
import { useMessages } from '../i18n/messages';
import { Button } from './Button';
import { useConfirm } from './ConfirmDialog';
import { Dialog } from './Dialog';

/** The states of a form dialog (console.md section 4). */
export type FormDialogState = 'pristine' | 'tainted' | 'saving';

export function formDialogState({ dirty, isSubmitting }: { dirty: boolean; isSubmitting: boolean }): FormDialogState {
  if (isSubmitting) {
    return 'saving';
  }
  return dirty ? 'tainted' : 'pristine';
}

export interface FormDialogProps<V extends FormikValues> {
  title: string;
  initialValues: V;
  /** One of the shared schemas of contracts/, so the dialog checks what the server checks. */
  validationSchema?: AnyObjectSchema;
  /** Saves; the dialog closes when it resolves and stays open (with the values) when it throws. */
  onSubmit: (values: V, helpers: FormikHelpers<V>) => Promise<void>;
  onClose: () => void;
  /** False while the dialog must stay open (closing is blocked). */
  closable?: boolean;
  submitText?: string;
  children: (form: FormikProps<V>) => ReactNode;
}

/** Warns before the page is left (reload, closing the tab, another site) while `active`. */
export function useLeaveWarning(active: boolean): void {
  useEffect(() => {
    if (!active) {
      return undefined;
    }
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [active]);
}

/**
 * Asks before a navigation inside the console (the back button, a link) while `active`; only
 * under a data router, which can hold a navigation back (a form on a page uses it with
 * useLeaveWarning).
 */
export function NavigationGuard({ active }: { active: boolean }) {
  const t = useMessages();
  const confirm = useConfirm();
  const blocker = useBlocker(active);
  useEffect(() => {
    if (blocker.state !== 'blocked') {
      return;
    }
    void confirm({ type: 'warning', title: t('dialog.discard.title'), message: t('dialog.discard.message'), confirmText: t('action.discard') }).then(
      (discard) => (discard ? blocker.proceed() : blocker.reset()),
    );
  }, [blocker, confirm, t]);
  return null;
}

/**
 * A form on a page with unsaved changes (`active`): the browser warns before the page is left,
 * and a navigation inside the console asks first (console.md section 2).
 */
export function UnsavedChangesGuard({ active }: { active: boolean }) {
  useLeaveWarning(active);
  return <NavigationGuard active={active} />;
}

/**
 * A dialog around a formik form: pristine, tainted (cancel then reads Discard, closing asks
 * first, the page warns on leaving and a navigation inside the console asks) and saving
 * (closing blocked).
 */
export function FormDialog<V extends FormikValues>({
  title,
  initialValues,
  validationSchema,
  onSubmit,
  onClose,
  closable = true,
  submitText,
  children,
}: FormDialogProps<V>) {
  return (
    <Formik<V>
      initialValues={initialValues}
      validationSchema={validationSchema}
      onSubmit={async (values, helpers) => {
        try {
          await onSubmit(values, helpers);
        } catch {
          // The caller shows the failure; the values stay for another try.
          return;
        }
        onClose();
      }}
    >
      {(form) => (
        <FormDialogBody form={form} title={title} onClose={onClose} closable={closable} submitText={submitText}>
          {children(form)}
        </FormDialogBody>
      )}
    </Formik>
  );
}

interface BodyProps<V extends FormikValues> {
  form: FormikProps<V>;
  title: string;
  onClose: () => void;
  closable: boolean;
  submitText: string | undefined;
  children: ReactNode;
}

function FormDialogBody<V extends FormikValues>({ form, title, onClose, closable, submitText, children }: BodyProps<V>) {
  const t = useMessages();
  const confirm = useConfirm();
  const formId = useId();
  const state = formDialogState(form);
  useLeaveWarning(state !== 'pristine');
  const inDataRouter = useContext(DataRouterContext) !== null;

  const requestClose = useCallback(async () => {
    if (state === 'saving' || !closable) {
      return;
    }
    if (state === 'tainted') {
      const discard = await confirm({
        type: 'warning',
        title: t('dialog.discard.title'),
        message: t('dialog.discard.message'),
        confirmText: t('action.discard'),
      });
      if (!discard) {
        return;
      }
    }
    onClose();
  }, [state, closable, confirm, t, onClose]);

  return (
    <Dialog
      title={title}
      onRequestClose={() => void requestClose()}
      actions={
        <>
          <Button variant="text" disabled={state === 'saving' || !closable} onClick={() => void requestClose()}>
            {form.dirty ? t('action.discard') : t('action.cancel')}
          </Button>
          <Button type="submit" form={formId} loading={state === 'saving'}>
            {submitText ?? t('action.save')}
          </Button>
        </>
      }
    >
      {inDataRouter && <NavigationGuard active={state === 'tainted'} />}
      <Form id={formId} noValidate>
        {children}
      </Form>
    </Dialog>
  );
}
