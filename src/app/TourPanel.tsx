/**
 * The guided tour's panel: one step at a time (what to say, what it runs), with Back / Next, so a
 * presenter can walk an audience through query -> train -> predict -> explain, and replay it.
 */
import {
  autoUpdate,
  flip,
  offset,
  shift,
  size,
  useFloating,
  type VirtualElement,
} from '@floating-ui/react-dom';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { activeVersion, isBusyStatus } from '../features/models/api';
import { modelVersionsQueryOptions } from '../features/models/api';
import { TOUR_MODEL, TOUR_PROJECT, TOUR_STEPS, type TourStep } from './tour';

interface Props {
  step: number;
  onStep(step: number): void;
  onClose(): void;
  onRun(step: TourStep): void;
}

/** Room kept between the panel, its target and the window's edges (px). */
const GAP = 12;

/**
 * The elements a step talks about, once all are on the page: they appear (or are replaced) when
 * the step has run, so the page is watched rather than read once.
 */
function useTargets(selectors: string[]): HTMLElement[] | null {
  const [els, setEls] = useState<HTMLElement[] | null>(null);
  const key = selectors.join('\n');
  useEffect(() => {
    const find = () => {
      const found = key.split('\n').map((s) => document.querySelector<HTMLElement>(s));
      const next = found.every((e): e is HTMLElement => e !== null) ? found : null;
      setEls((prev) =>
        prev && next && prev.length === next.length && prev.every((e, i) => e === next[i])
          ? prev
          : next,
      );
    };
    find();
    const observer = new MutationObserver(find);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [key]);
  return els;
}

/** The box around the elements, as Floating UI's reference (scroll listeners on the last one). */
function unionOf(els: HTMLElement[]): VirtualElement {
  return {
    contextElement: els[els.length - 1],
    getBoundingClientRect() {
      const rects = els.map((e) => e.getBoundingClientRect());
      const left = Math.min(...rects.map((r) => r.left));
      const top = Math.min(...rects.map((r) => r.top));
      const right = Math.max(...rects.map((r) => r.right));
      const bottom = Math.max(...rects.map((r) => r.bottom));
      return {
        x: left,
        y: top,
        left,
        top,
        right,
        bottom,
        width: right - left,
        height: bottom - top,
      };
    },
  };
}

export function TourPanel({ step, onStep, onClose, onRun }: Props) {
  const current = TOUR_STEPS[step];
  const targets = useTargets(current.target);
  const reference = useMemo(() => (targets ? unionOf(targets) : null), [targets]);
  const target = targets?.at(-1) ?? null;
  // Inside the main area: the top bar (Present, the tour's own toggle) stays uncovered.
  const boundary = target?.closest('main') ?? undefined;
  // Beside the target, never over it: above or below first (the targets are wide), then at a
  // side; what does not fit scrolls inside the panel rather than covering the target.
  const [panel, setPanel] = useState<HTMLElement | null>(null);
  const { floatingStyles } = useFloating({
    strategy: 'fixed',
    placement: current.side,
    elements: { reference, floating: panel },
    whileElementsMounted: autoUpdate,
    middleware: [
      // When the panel and the whole target do not fit one above the other, the panel sits above
      // the target's last part (the chart) at its right end, where the text beside the first part
      // ends, rather than shrinking to a few lines.
      {
        name: 'roomForPanel',
        fn({ rects, elements }) {
          if (!targets || targets.length < 2 || !boundary) return {};
          const last = targets[targets.length - 1].getBoundingClientRect();
          const whole = rects.reference.height + elements.floating.scrollHeight + 3 * GAP;
          if (
            whole <= boundary.getBoundingClientRect().height ||
            rects.reference.height <= last.height + 1
          )
            return {};
          return {
            reset: {
              placement: 'top-end',
              rects: {
                reference: { x: last.x, y: last.y, width: last.width, height: last.height },
                floating: rects.floating,
              },
            },
          };
        },
      },
      offset(GAP),
      flip({
        boundary,
        padding: GAP,
        fallbackPlacements: [
          current.side === 'top-end' ? 'bottom-end' : 'bottom-start',
          'left',
          'right',
        ],
      }),
      shift({ boundary, padding: GAP }),
      size({
        boundary,
        padding: GAP,
        apply({ availableHeight, availableWidth, elements }) {
          elements.floating.style.maxHeight = `${Math.max(120, availableHeight)}px`;
          elements.floating.style.maxWidth = `${Math.max(240, availableWidth)}px`;
        },
      }),
    ],
  });
  // Scroll the target's last part into view once per step (the audience looks where the tour
  // points), to the bottom of the view: the panel prefers the room above, where it shows its
  // whole text.
  const shown = useRef<{ step: number; el: HTMLElement } | null>(null);
  useEffect(() => {
    if (!target || (shown.current?.step === step && shown.current.el === target)) return;
    shown.current = { step, el: target };
    target.scrollIntoView({ block: 'end', inline: 'nearest' });
  }, [step, target]);
  const versions = useQuery({
    ...modelVersionsQueryOptions(TOUR_PROJECT, TOUR_MODEL),
    enabled: step >= 1,
  });
  const model = activeVersion(versions.data ?? []) ?? versions.data?.at(-1);
  const needsModel = current.action.kind === 'model-page' || !!current.action.needsModel;
  const training = model && isBusyStatus(model.status);
  const modelNote = !needsModel
    ? null
    : !model
      ? 'Train the model first (step 2).'
      : training
        ? `The model is training${model.phase.name ? ` (${model.phase.name})` : ''}…`
        : model.status === 'error'
          ? `Training failed: ${model.error ?? 'no reason given'}. Run step 2 again.`
          : null;
  const last = step === TOUR_STEPS.length - 1;

  return (
    <section
      ref={setPanel}
      className={target ? 'tour placed' : 'tour'}
      style={target ? floatingStyles : undefined}
      role="dialog"
      aria-label="Guided tour"
    >
      <header className="tour-header">
        <span className="tour-count">
          Step {step + 1} of {TOUR_STEPS.length}
        </span>
        <button className="icon-btn" aria-label="Close the tour" onClick={onClose}>
          ×
        </button>
      </header>
      <h2>{current.title}</h2>
      <p>{current.text}</p>
      {current.action.kind === 'sql' && (
        <details className="tour-details">
          <summary>The SQL this step runs (it lands in the editor)</summary>
          <pre className="tour-sql">{current.action.sql}</pre>
        </details>
      )}
      {modelNote && (
        <p className="tour-note" role="status">
          {training && <span className="spinner small" aria-hidden />}
          {modelNote}
        </p>
      )}
      <footer className="tour-footer">
        <ol className="tour-dots" aria-label="Steps">
          {TOUR_STEPS.map((s, i) => (
            <li key={s.id}>
              <button
                aria-label={`Step ${i + 1}: ${s.title}`}
                aria-current={i === step ? 'step' : undefined}
                onClick={() => onStep(i)}
              />
            </li>
          ))}
        </ol>
        <span className="spacer" />
        <button className="btn" disabled={step === 0} onClick={() => onStep(step - 1)}>
          Back
        </button>
        <button
          className="btn primary"
          disabled={needsModel && model?.status !== 'complete'}
          onClick={() => onRun(current)}
        >
          ▶ {current.run}
        </button>
        {last ? (
          <button className="btn" onClick={() => onStep(0)}>
            Replay
          </button>
        ) : (
          <button className="btn" onClick={() => onStep(step + 1)}>
            Next →
          </button>
        )}
      </footer>
    </section>
  );
}
