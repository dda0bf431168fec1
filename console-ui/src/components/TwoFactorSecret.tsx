import { lazy, Suspense } from 'react';
import styled from 'styled-components';

// qrcode.react loads with the two-factor set-up only, not with the screen around it.
const QRCodeSVG = lazy(async () => ({ default: (await import('qrcode.react')).QRCodeSVG }));

export interface TwoFactorSecretProps {
  /** The authenticator key, for typing in by hand. */
  secret: string;
  /** The otpauth:// link of the key: the QR code's content and the link to an authenticator app on this device. */
  keyuri: string;
  /** Texts of the screen showing it: the key's label, the QR code's name, the link's text. */
  secretLabel: string;
  qrCodeLabel: string;
  openAppText: string;
}

/**
 * The authenticator key of a two-factor set-up (invite, settings): a QR code of its otpauth link
 * to scan, and the key itself, easy to read and copy, for an app that cannot scan.
 */
export function TwoFactorSecret({ secret, keyuri, secretLabel, qrCodeLabel, openAppText }: TwoFactorSecretProps) {
  return (
    <Layout>
      <QrFrame>
        <Suspense fallback={null}>
          <QRCodeSVG value={keyuri} size={160} title={qrCodeLabel} role="img" aria-label={qrCodeLabel} data-testid="two-factor-qr-code" />
        </Suspense>
      </QrFrame>
      <Key>
        <span>{secretLabel}</span>
        <code data-testid="two-factor-secret">{secret}</code>
        <a href={keyuri}>{openAppText}</a>
      </Key>
    </Layout>
  );
}

const Layout = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 16px;
  align-items: center;
  margin-bottom: 14px;
`;

// Keeps the space of the code while it loads, on white so that every scanner reads it.
const QrFrame = styled.div`
  width: 160px;
  height: 160px;
  padding: 8px;
  box-sizing: content-box;
  background: #fff;
`;

const Key = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;
  min-width: 0;
  flex: 1 1 200px;
  code {
    font-size: 15px;
    letter-spacing: 0.08em;
    word-break: break-all;
  }
`;
