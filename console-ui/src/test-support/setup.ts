import '@testing-library/jest-dom';
// As in main.tsx: the console's yup texts, before any schema is built.
import '../forms/validation-texts';
