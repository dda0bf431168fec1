import styled from 'styled-components';

/** Why a picker's choice is refused (the schema's or the server's message), under the picker. */
export const Problem = styled.span`
  color: ${({ theme }) => theme.colors.error};
`;

/** The role select of the partnership dialog, laid out as the console's text fields. */
export const SelectLabel = styled.label`
  display: flex;
  flex-direction: column;
  gap: 4px;
  margin: 14px 0;
  font-weight: ${({ theme }) => theme.fontWeights.medium};
  select {
    min-height: 38px;
    padding: 0 10px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: 6px;
    font-weight: normal;
  }
`;
