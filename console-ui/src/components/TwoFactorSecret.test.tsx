import { render, screen } from '@testing-library/react';
import { QRCodeSVG } from 'qrcode.react';
import { TwoFactorSecret } from './TwoFactorSecret';

const secret = 'JBSWY3DPEHPK3PXP';
const keyuri = `otpauth://totp/Gridport:casey%40example.com?secret=${secret}&issuer=Gridport`;

/** The modules of a QR code as its svg draws them (the dark path), which depend only on the value encoded. */
function modulesOf(svg: Element): string | null | undefined {
  return svg.querySelectorAll('path')[1]?.getAttribute('d');
}

function modulesEncoding(value: string): string | null | undefined {
  const { container, unmount } = render(<QRCodeSVG value={value} size={160} />);
  const modules = modulesOf(container.querySelector('svg') ?? document.createElement('svg'));
  unmount();
  return modules;
}

describe('TwoFactorSecret', () => {
  it('shows a QR code of the otpauth link beside the key and the link', async () => {
    render(<TwoFactorSecret secret={secret} keyuri={keyuri} secretLabel="Key" qrCodeLabel="QR code of the key" openAppText="Open in authenticator app" />);

    const qrCode = await screen.findByRole('img', { name: 'QR code of the key' });
    expect(qrCode.tagName.toLowerCase()).toBe('svg');
    expect(screen.getByTestId('two-factor-secret')).toHaveTextContent(secret);
    expect(screen.getByRole('link', { name: 'Open in authenticator app' })).toHaveAttribute('href', keyuri);

    const drawn = modulesOf(qrCode);
    expect(drawn).toEqual(modulesEncoding(keyuri));
    // Not the bare key: an app scanning it needs the whole link (issuer, account, algorithm).
    expect(drawn).not.toEqual(modulesEncoding(secret));
  });
});
