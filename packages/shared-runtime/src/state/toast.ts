/** Toast data the runtime emits; the shell renders it (the runtime has no UI) */
export interface ToastMessage {
  title: string;
  description?: string;
  variant: 'default' | 'destructive';
}
