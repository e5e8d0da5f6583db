/** Which e2e trainings come from the run's training cache (playwright.config.ts's webServer). */

/**
 * The models of the journeys that train without watching the training (no training card, no
 * phases on screen, no cancel meanwhile): the shared ones (e2e/model-setup.ts) and those a journey
 * trains or retrains through the API before it reads them. The journeys' instances reuse the run's
 * finished trainings of identical requests for these names only (TRAINING_CACHE_MODELS, set by
 * scripts/e2e-server.mjs from playwright.config.ts's webServer env), as Vitest's files that opt in
 * do: both workers' instances train home_rentals and customer_churn, the leaky presenter model and
 * the monitoring journey's first version are the shared rentals request, and a RETRAIN on the same
 * data is its first version's request. A journey that watches its training (the create form, the
 * editor's status card, the tour, the forecast form) names its model outside this list and trains.
 * `E2E_TRAINING_CACHE=0` trains everything.
 */
export const REUSED_TRAININGS =
  '^e2e_(shared_rentals|shared_churn|eval_churn|explain_.+|compare_small|monitoring_rentals|scoring|presenter_leaky|presenter_house_sales)$';
