/** A button that copies a text to the clipboard and says so for a moment. */
import { useEffect, useState } from 'react';

export function CopyButton({
  text,
  label,
  title,
}: {
  text: string;
  label: string;
  title?: string;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(t);
  }, [copied]);
  return (
    <button
      className="btn small"
      title={title}
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(
          () => setCopied(true),
          () => setCopied(false),
        );
      }}
    >
      {copied ? '✓ Copied' : label}
    </button>
  );
}
