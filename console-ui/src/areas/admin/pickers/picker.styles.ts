import styled from 'styled-components';

/** The look of the admin search pickers (organisation, device, user, API key): one column, the choice, the results. */
export const PickerFilter = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;
  font-size: 13px;
`;

/** A picker among a form's fields: its label above, its search box drawn as the text fields are. */
export const FormPicker = styled(PickerFilter)`
  font-size: inherit;
  margin-bottom: 14px;
  max-width: 480px;
  > span:first-child {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
  input {
    min-height: 36px;
    padding: 0 10px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: 6px;
  }
`;

export const PickerChosen = styled.span`
  color: ${({ theme }) => theme.colors.textMuted};
  overflow-wrap: anywhere;
`;

export const PickerResults = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  max-height: 160px;
  overflow: auto;
  button {
    width: 100%;
    text-align: left;
    padding: 4px 6px;
    border: 0;
    border-radius: 4px;
    background: none;
    cursor: pointer;
    overflow-wrap: anywhere;
  }
  button[aria-pressed='true'] {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
    background: ${({ theme }) => theme.colors.border};
  }
`;

/** The choices of a picker of many (devices, users): removable chips. */
export const PickerChips = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-wrap: wrap;
  gap: 6px;
  li {
    display: inline-flex;
    align-items: center;
    gap: 4px;
    padding: 2px 8px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: 12px;
    overflow-wrap: anywhere;
  }
  button {
    border: 0;
    background: none;
    cursor: pointer;
    padding: 0 2px;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;
