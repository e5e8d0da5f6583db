import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ExplainWaterfall } from './ExplainWaterfall';
import { PredictionExplain } from '../../../../contract';
import type { PredictionView } from '../inputs';

const view = (over: Partial<PredictionView>): PredictionView => ({
  index: 0,
  prediction: 2925.3,
  confidence: 0.9,
  lower: null,
  upper: null,
  anomaly: null,
  original: null,
  probabilities: {},
  explain: null,
  explainError: null,
  inputs: { sqft: 917, location: 'great' },
  ...over,
});

const regressionExplain = {
  predicted_value: 2925.3,
  confidence: 0.9,
  anomaly: null,
  truth: null,
  confidence_lower_bound: null,
  confidence_upper_bound: null,
  base_value: 2410.2,
  feature_contributions: { sqft: 380.1, location: 135 },
  explained_value: 2925.3,
  explained_class: null,
};

describe('ExplainWaterfall', () => {
  it('names the chart with every push and reads the regression in the target’s numbers', () => {
    render(
      <ExplainWaterfall
        view={view({ explain: PredictionExplain.parse(regressionExplain) })}
        target="rental_price"
        theme="light"
      />,
    );
    expect(screen.getByRole('region', { name: 'Why this prediction' })).toBeInTheDocument();
    expect(
      screen.getByRole('img', {
        name: 'Explanation of row 1: starts at 2,410.2; sqft = 917 +380.1; location = great +135; ends at 2,925.3',
      }),
    ).toBeInTheDocument();
    expect(screen.getByText(/The model’s average rental_price is 2,410.2/)).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Contributions for row 1' });
    expect(table).toHaveTextContent('sqft = 917+380.12,790.3');
  });

  it('explains a binary classifier’s score as log-odds of the predicted class', () => {
    render(
      <ExplainWaterfall
        view={view({
          prediction: 'Yes',
          probabilities: { No: 0.3, Yes: 0.7 },
          explain: PredictionExplain.parse({
            ...regressionExplain,
            predicted_value: 'Yes',
            base_value: -1,
            feature_contributions: { Age: 1.5, Balance: 0.5 },
            explained_value: 1,
            explained_class: 'Yes',
          }),
          inputs: { Age: 50, Balance: 0 },
        })}
        target="Exited"
        theme="dark"
      />,
    );
    expect(
      screen.getByText(/raw score for “Yes”, the predicted class, in log-odds/),
    ).toHaveTextContent('which calibration turns into the 70.0% probability shown above');
    expect(screen.getByRole('table', { name: 'Contributions for row 1' })).toHaveTextContent(
      'Score of “Yes”',
    );
  });

  it('draws nothing when the server sent no contributions', () => {
    const { container } = render(
      <ExplainWaterfall
        view={view({
          explain: PredictionExplain.parse({ ...regressionExplain, base_value: undefined }),
        })}
        target="rental_price"
        theme="light"
      />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});
