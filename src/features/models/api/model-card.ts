/**
 * The model card (this instance's extension): one self-contained HTML file a stakeholder can keep,
 * `GET /api/projects/{p}/models/{m}[.N]/card`; `?download=1` makes it an attachment named
 * `<project>.<model>.v<N>.html`.
 */
export function modelCardPath(
  project: string,
  model: string,
  version?: number,
  download = false,
): string {
  const m = version === undefined ? model : `${model}.${version}`;
  return (
    `/api/projects/${encodeURIComponent(project)}/models/${encodeURIComponent(m)}/card` +
    (download ? '?download=1' : '')
  );
}
