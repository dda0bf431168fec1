import styled from 'styled-components';

/** The look of the admin issue list's search pickers (device, assignee, subscriber): one column, the choice, the results. */
export const PickerFilter = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;
  font-size: 13px;
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
