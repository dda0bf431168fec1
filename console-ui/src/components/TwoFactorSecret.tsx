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
