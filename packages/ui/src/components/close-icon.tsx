/** The × drawn by every closable ui part; decorative, so the button around it carries the label */
export function CloseIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      className="ui:size-4"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d="M18 6 6 18M6 6l12 12" strokeLinecap="round" />
    </svg>
  );
}
