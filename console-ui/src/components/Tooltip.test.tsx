import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../test-support/render';
import { Button } from './Button';
import { PermissionTooltip, Tooltip } from './Tooltip';

describe('tooltips', () => {
  it('shows its text on hover and hides it on leaving', async () => {
    renderWithProviders(
      <Tooltip text="Last seen 5 minutes ago">
        <span>online</span>
      </Tooltip>,
    );
    await userEvent.hover(screen.getByText('online'));
    expect(screen.getByRole('tooltip')).toHaveTextContent('Last seen 5 minutes ago');
    await userEvent.unhover(screen.getByText('online'));
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it.each([false, null, undefined, ''] as const)('shows nothing at all for the false text %p', async (text) => {
    const { container } = renderWithProviders(
      <Tooltip text={text}>
        <span>online</span>
      </Tooltip>,
    );
    await userEvent.hover(screen.getByText('online'));
    expect(screen.queryByRole('tooltip')).toBeNull();
    // Not even a wrapper: the child stands alone.
    expect(container.innerHTML).toBe('<span>online</span>');
  });

  it('gives a control the user may not use the "no permission" hint', async () => {
    renderWithProviders(
      <PermissionTooltip allowed={false}>
        <button type="button">Delete</button>
      </PermissionTooltip>,
    );
    await userEvent.hover(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByRole('tooltip')).toHaveTextContent('No permission');
  });

  it('gives a permitted control no hint', async () => {
    renderWithProviders(
      <PermissionTooltip allowed>
        <button type="button">Delete</button>
      </PermissionTooltip>,
    );
    await userEvent.hover(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('disables a button the user may not use and says why', async () => {
    const click = jest.fn();
    renderWithProviders(
      <Button permitted={false} onClick={click}>
        Reboot
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Reboot' });
    expect(button).toBeDisabled();
    await userEvent.hover(button.parentElement ?? button);
    expect(screen.getByRole('tooltip')).toHaveTextContent('No permission');
    expect(click).not.toHaveBeenCalled();
  });
});
