/**
 * The guided first-run sample: four steps on the embedded demo data (query it, train a model,
 * predict with SQL, see why), each with what to say and what to run, so a presenter can replay it.
 * The tour trains its own model (TOUR_MODEL) and drops it first on a replay, so each run trains
 * afresh in front of the audience.
 */
export const TOUR_PROJECT = 'mindsdb';
export const TOUR_MODEL = 'tour_home_rentals';
const TOUR_TARGET = 'rental_price';
export const TOUR_TAB_TITLE = 'Guided tour';
export const TOUR_SEEN_KEY = 'smp.tour-seen';

/** The listing the tour asks the model about (every input of the tour's model). */
export const TOUR_LISTING = {
  number_of_rooms: 2,
  number_of_bathrooms: 1,
  sqft: 917,
  location: 'great',
  days_on_market: 13,
  neighborhood: 'berkeley_hills',
} as const;

/**
 * What the model reads: every column of home_rentals but `initial_price`, the asking price, which
 * is set from the rent itself: a model that reads it learns nothing about homes (a leak; the model
 * page warns about it and retrains without it in one click).
 */
const TOUR_COLUMNS = [...Object.keys(TOUR_LISTING), TOUR_TARGET].join(', ');

const sqlValue = (v: string | number) => (typeof v === 'number' ? String(v) : `'${v}'`);

type TourAction =
  { kind: 'sql'; sql: string; needsModel?: boolean } | { kind: 'model-page'; tab: 'predict' };

export interface TourStep {
  id: 'query' | 'train' | 'predict' | 'explain';
  title: string;
  text: string;
  action: TourAction;
  /** Label of the step's button. */
  run: string;
  /**
   * What the step talks about (CSS selectors; the box around all of them): the tour's panel sits
   * beside it, never over it, and scrolls it into view once it is on the page (it appears when the
   * step has run).
   */
  target: string[];
  /** Where the panel goes: above the target, at its right end or its left start. */
  side: 'top-end' | 'top-start';
}

export const TOUR_STEPS: TourStep[] = [
  {
    id: 'query',
    title: 'Query the demo data',
    text: 'Rental listings in the embedded demo database: size, rooms, location, days on the market and the rent. Plain SQL, results in a grid you can sort, filter and export.',
    action: {
      kind: 'sql',
      sql: 'SELECT * FROM example_db.demo_data.home_rentals LIMIT 10;',
    },
    run: 'Run the query',
    target: ['.result-grid .ag-header'],
    side: 'top-end',
  },
  {
    id: 'train',
    title: 'Train a model',
    text: 'One statement trains a model that predicts the rent from the rooms, size, location and days on the market, leaving out initial_price: the asking price is set from the rent itself, so a model that read it would learn nothing about homes. Training runs in the background; the card follows it live and links to the model’s page.',
    action: {
      kind: 'sql',
      sql: `DROP MODEL IF EXISTS ${TOUR_PROJECT}.${TOUR_MODEL};
CREATE MODEL ${TOUR_PROJECT}.${TOUR_MODEL}
FROM example_db (SELECT ${TOUR_COLUMNS} FROM demo_data.home_rentals)
PREDICT ${TOUR_TARGET};`,
    },
    run: 'Train it',
    target: ['.m-training-card'],
    side: 'top-end',
  },
  {
    id: 'predict',
    title: 'Predict with SQL',
    text: 'Ask the model about a listing it has never seen, like querying a table: the predicted rent comes with its confidence and an interval, kept in view at the left of the grid.',
    action: {
      kind: 'sql',
      needsModel: true,
      sql: `SELECT round(${TOUR_TARGET}) AS ${TOUR_TARGET}, ${TOUR_TARGET}_confidence,
  round(${TOUR_TARGET}_min) AS ${TOUR_TARGET}_min, round(${TOUR_TARGET}_max) AS ${TOUR_TARGET}_max,
  ${TOUR_TARGET}_explain
FROM ${TOUR_PROJECT}.${TOUR_MODEL}
WHERE ${Object.entries(TOUR_LISTING)
        .map(([k, v]) => `${k} = ${sqlValue(v)}`)
        .join('\n  AND ')};`,
    },
    run: 'Predict',
    target: ['.result-grid .ag-header'],
    side: 'top-end',
  },
  {
    id: 'explain',
    title: 'See why',
    text: 'The same listing on the model’s page: the predicted rent with its interval, and why: a waterfall from the average rent through each input’s push. Two rooms and the size push the rent up most, the single bathroom pulls it down. Describe says how far off the model typically is.',
    action: { kind: 'model-page', tab: 'predict' },
    run: 'Open the model page',
    // The prediction with its interval down to the waterfall; the panel above it at the left,
    // over the form, clear of Send (at the left of the JSON body).
    target: ['.m-headline', '.m-explain .m-chart'],
    side: 'top-start',
  },
];
