/** One side of the compare view: the model's versions, the version compared and its description. */
import { useQuery } from '@tanstack/react-query';
import type { DescribeSummaryRow, ModelWarning } from '../../../../contract';
import {
  activeVersion,
  describeQueryOptions,
  modelVersionsQueryOptions,
  type ModelVersion,
} from '../api';
import type { ModelRef } from './compare';

export interface Side {
  ref: ModelRef | undefined;
  versions: ModelVersion[];
  /** The version compared: the pinned one, else the active one. */
  chosen: ModelVersion | undefined;
  describe: DescribeSummaryRow | undefined;
  /** What to check before trusting it (a likely leak...), from describe's info. */
  warnings: ModelWarning[];
  loading: boolean;
  error: Error | null;
}

export function useSide(ref: ModelRef | undefined): Side {
  const versionsQ = useQuery({
    ...modelVersionsQueryOptions(ref?.project ?? '', ref?.model ?? ''),
    enabled: !!ref,
  });
  const versions = versionsQ.data ?? [];
  const active = activeVersion(versions);
  const chosen =
    ref?.version === undefined ? active : versions.find((v) => v.version === ref.version);
  const ready = chosen?.status === 'complete';
  const describeQ = useQuery(
    describeQueryOptions(ref?.project ?? '', ref?.model ?? '', '', {
      version: ref?.version,
      activeVersion: active?.version,
      enabled: !!ref && ready,
    }),
  );
  const infoQ = useQuery(
    describeQueryOptions(ref?.project ?? '', ref?.model ?? '', 'info', {
      version: ref?.version,
      activeVersion: active?.version,
      enabled: !!ref && ready,
    }),
  );
  return {
    ref,
    versions,
    chosen,
    describe: describeQ.data?.[0],
    warnings: infoQ.data?.[0]?.warnings ?? [],
    loading: !!ref && (versionsQ.isPending || (ready && describeQ.isPending)),
    error: versionsQ.error ?? describeQ.error ?? null,
  };
}
