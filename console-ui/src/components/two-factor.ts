import styled from 'styled-components';

/** The authenticator key of a two-factor set-up (invite, settings), easy to read and copy. */
export const TwoFactorSecret = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;
  margin-bottom: 14px;
  code {
    font-size: 15px;
    letter-spacing: 0.08em;
    word-break: break-all;
  }
`;

/** Recovery codes, shown once, in two columns. */
export const RecoveryCodeList = styled.ul`
  columns: 2;
  padding-left: 18px;
  font-family: monospace;
  font-size: 15px;
`;
