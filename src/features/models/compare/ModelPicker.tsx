/** Picks one side of the compare view: project, model and version (the active one by default). */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { modelsQueryOptions } from '../../../api/catalog';
import { modelVersionsQueryOptions, projectsQueryOptions } from '../api';
import { versionLabel } from '../shared';
import type { ModelRef } from './compare';

export function ModelPicker({
  side,
  value,
  onChange,
}: {
  side: 'A' | 'B';
  value: ModelRef | undefined;
  onChange(ref: ModelRef | undefined): void;
}) {
  const projects = useQuery(projectsQueryOptions());
  const [picked, setPicked] = useState<string | null>(null);
  const project = value?.project ?? picked ?? projects.data?.[0] ?? '';
  const models = useQuery({ ...modelsQueryOptions(project), enabled: !!project });
  const versions = useQuery({
    ...modelVersionsQueryOptions(project, value?.model ?? ''),
    enabled: !!value?.model,
  });
  return (
    <section className="card" aria-label={`Model ${side}`}>
      <div className="m-compare-picker">
        <strong className={side === 'A' ? 'm-side-a' : 'm-side-b'}>{side}</strong>
        <label>
          Project
          <select
            aria-label={`Project ${side}`}
            value={project}
            onChange={(e) => {
              setPicked(e.target.value);
              onChange(undefined);
            }}
          >
            {(projects.data ?? [project]).map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <label>
          Model
          <select
            aria-label={`Model ${side}`}
            value={value?.model ?? ''}
            onChange={(e) =>
              onChange(e.target.value ? { project, model: e.target.value } : undefined)
            }
          >
            <option value="">Choose a model</option>
            {models.data?.map((m) => (
              <option key={m.name} value={m.name}>
                {m.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Version
          <select
            aria-label={`Version ${side}`}
            value={value?.version === undefined ? '' : String(value.version)}
            disabled={!value?.model}
            onChange={(e) =>
              value &&
              onChange({
                project: value.project,
                model: value.model,
                ...(e.target.value ? { version: Number(e.target.value) } : {}),
              })
            }
          >
            <option value="">active</option>
            {[...(versions.data ?? [])].reverse().map((v) => (
              <option key={v.version} value={String(v.version)} disabled={v.status !== 'complete'}>
                {versionLabel(v)}
              </option>
            ))}
          </select>
        </label>
      </div>
    </section>
  );
}
