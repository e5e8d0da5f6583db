/** How the create form's parts show a field's message (once the user tried to submit). */
import type { ReactNode } from 'react';

export type FieldError = (key: string) => ReactNode;
