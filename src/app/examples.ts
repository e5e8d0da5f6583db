/** Example queries for a first-time user (all run against the embedded demo data). */
export interface Example {
  title: string;
  sql: string;
}

export const EXAMPLES: Example[] = [
  {
    title: 'Browse home rentals',
    sql: 'SELECT * FROM example_db.demo_data.home_rentals LIMIT 10;',
  },
  {
    title: 'Average rent by neighborhood',
    sql: `SELECT neighborhood, count(*) AS listings, round(avg(rental_price), 0) AS avg_rent
FROM example_db.demo_data.home_rentals
GROUP BY neighborhood
ORDER BY avg_rent DESC;`,
  },
  {
    title: 'Churn rate by contract',
    sql: `SELECT Contract, count(*) AS customers,
  round(100.0 * avg(CASE WHEN Churn = 'Yes' THEN 1 ELSE 0 END), 1) AS churn_pct
FROM example_db.demo_data.telco_churn
GROUP BY Contract
ORDER BY churn_pct DESC;`,
  },
  {
    title: 'List the databases',
    sql: 'SHOW FULL DATABASES;',
  },
  {
    title: 'Train a model',
    sql: `CREATE MODEL mindsdb.home_rentals_model
FROM example_db (SELECT * FROM demo_data.home_rentals)
PREDICT rental_price;`,
  },
];
