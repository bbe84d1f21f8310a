// What the AI tool pages and the playground share to take an image from the visitor: a hidden
// file input (a label or a drop zone is what people see) and the upload's progress bar.

/** A hidden file input that hands over the chosen file, and lets the same file be chosen again. */
export function HiddenFileInput({
  id,
  accept,
  onFile,
}: {
  id?: string
  accept: string
  onFile: (file: File) => void
}) {
  return (
    <input
      id={id}
      type="file"
      accept={accept}
      className="visually-hidden"
      onChange={(event) => {
        const file = event.target.files?.[0]
        event.target.value = ''
        if (file !== undefined) onFile(file)
      }}
    />
  )
}

export function UploadProgress({ percent, label }: { percent: number; label: string }) {
  return (
    <progress max={100} value={percent} aria-label={label}>
      {percent}%
    </progress>
  )
}
