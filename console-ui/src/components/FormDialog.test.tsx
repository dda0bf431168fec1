import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { deviceGroupCreateSchema } from '../../../contracts/device-group';
import { renderWithProviders } from '../test-support/render';
import { FormDialog, formDialogState } from './FormDialog';
import { TextField } from './TextField';

interface Values {
  name: string;
}

function setUp({ onSubmit = async () => undefined, closable = true }: { onSubmit?: (values: Values) => Promise<void>; closable?: boolean } = {}) {
  const onClose = jest.fn();
  renderWithProviders(
    <FormDialog<Values>
      title="Rename group"
      initialValues={{ name: 'North' }}
      validationSchema={deviceGroupCreateSchema.pick(['name'])}
      onSubmit={onSubmit}
      onClose={onClose}
      closable={closable}
    >
      {() => <TextField name="name" label="Name" />}
    </FormDialog>,
  );
  return { onClose };
}

/** Whether leaving the page now would ask first. */
function leavingAsks(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('form dialogs', () => {
  it.each([
    [{ dirty: false, isSubmitting: false }, 'pristine'],
    [{ dirty: true, isSubmitting: false }, 'tainted'],
    [{ dirty: true, isSubmitting: true }, 'saving'],
    [{ dirty: false, isSubmitting: true }, 'saving'],
  ])('%p is %p', (form, state) => {
    expect(formDialogState(form)).toBe(state);
  });

  it('closes a pristine dialog at once, and the page leaves without asking', async () => {
    const { onClose } = setUp();
    expect(leavingAsks()).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog', { name: 'Discard changes?' })).toBeNull();
  });

  it('once tainted, reads Discard, asks before closing and warns on leaving the page', async () => {
    const { onClose } = setUp();
    await userEvent.type(screen.getByLabelText('Name'), ' West');
    expect(screen.getByRole('button', { name: 'Discard' })).toBeInTheDocument();
    expect(leavingAsks()).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect(screen.getByRole('dialog', { name: 'Discard changes?' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Name')).toHaveValue('North West');

    await userEvent.keyboard('{Escape}');
    const confirmation = screen.getByRole('dialog', { name: 'Discard changes?' });
    await userEvent.click(within(confirmation).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });

  it('blocks closing while saving, then closes when the save succeeds', async () => {
    let finish: () => void = () => undefined;
    const { onClose } = setUp({ onSubmit: () => new Promise<void>((resolve) => (finish = resolve)) });
    await userEvent.type(screen.getByLabelText('Name'), ' West');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('button', { name: 'Save' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('button', { name: 'Discard' })).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Discard changes?' })).toBeNull();
    expect(leavingAsks()).toBe(true);
    expect(onClose).not.toHaveBeenCalled();
    await act(async () => finish());
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });

  it('stays open with the values when the save fails', async () => {
    const { onClose } = setUp({ onSubmit: async () => Promise.reject(new Error('already_configured')) });
    await userEvent.type(screen.getByLabelText('Name'), ' West');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled());
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Name')).toHaveValue('North West');
  });

  it('validates with the shared schema before saving', async () => {
    const onSubmit = jest.fn(async () => undefined);
    setUp({ onSubmit });
    await userEvent.clear(screen.getByLabelText('Name'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    // The console's yup texts (forms/validation-texts.ts): the label stands beside the message.
    expect(await screen.findByRole('alert')).toHaveTextContent('Required');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('cannot be closed at all when not closable', async () => {
    const { onClose } = setUp({ closable: false });
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('form dialogs under the router', () => {
  function setUpRouted() {
    const router = createMemoryRouter(
      [
        {
          path: '/edit',
          element: (
            <FormDialog<Values> title="Rename group" initialValues={{ name: 'North' }} onSubmit={async () => undefined} onClose={() => undefined}>
              {() => <TextField name="name" label="Name" />}
            </FormDialog>
          ),
        },
        { path: '/other', element: <p>Elsewhere</p> },
      ],
      { initialEntries: ['/edit'] },
    );
    renderWithProviders(<RouterProvider router={router} />);
    return router;
  }

  it('lets a pristine dialog be navigated away from', async () => {
    const router = setUpRouted();
    await act(() => router.navigate('/other'));
    expect(router.state.location.pathname).toBe('/other');
  });

  it('asks before a navigation takes a tainted dialog away, and stays when told to', async () => {
    const router = setUpRouted();
    await userEvent.type(screen.getByLabelText('Name'), ' West');
    await act(() => router.navigate('/other'));
    const confirmation = screen.getByRole('dialog', { name: 'Discard changes?' });
    expect(router.state.location.pathname).toBe('/edit');
    await userEvent.click(within(confirmation).getByRole('button', { name: 'Cancel' }));
    expect(router.state.location.pathname).toBe('/edit');
    expect(screen.getByLabelText('Name')).toHaveValue('North West');

    await act(() => router.navigate('/other'));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Discard changes?' })).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/other'));
    expect(screen.getByText('Elsewhere')).toBeInTheDocument();
  });
});
