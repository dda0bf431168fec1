import styled from 'styled-components';

/** The filters above a staff list: labelled inputs and selects in a grid, the actions last. */
export const FilterForm = styled.form`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(200px, 1fr));
  gap: 8px 12px;
  margin-bottom: 12px;
  label {
    display: flex;
    flex-direction: column;
    gap: 2px;
    font-size: 13px;
  }
  input,
  select {
    min-height: 32px;
    padding: 0 8px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: 6px;
    background: ${({ theme }) => theme.colors.surface};
  }
`;

/** The apply and clear buttons of a FilterForm. */
export const FilterActions = styled.div`
  display: flex;
  align-items: flex-end;
  gap: 8px;
`;
