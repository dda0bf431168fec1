import styled from 'styled-components';

/** The buttons and links under a form before sign-in, one under the other. */
export const FormActions = styled.div`
  display: flex;
  flex-direction: column;
  gap: 8px;
  margin-top: 8px;
`;
