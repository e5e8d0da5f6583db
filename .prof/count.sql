SELECT count(*) AS n,
  histogram(v0, [CAST('-5e-324' AS DOUBLE), 0::DOUBLE, 1::DOUBLE, 2::DOUBLE, 3::DOUBLE]::DOUBLE[]) AS h0,
  sum(v0) AS s0,
  histogram_exact(k1, ['1', '2']) AS h1,
  histogram(v2, [CAST('100.99999999999999' AS DOUBLE), 284::DOUBLE, 385::DOUBLE, 473::DOUBLE, 539::DOUBLE, 623::DOUBLE, 715::DOUBLE, 829::DOUBLE, 922::DOUBLE, 1082::DOUBLE, 1249::DOUBLE]::DOUBLE[]) AS h2,
  sum(v2) AS s2,
  histogram_exact(k3, ['good', 'poor', 'great']) AS h3,
  histogram(v4, [CAST('-5e-324' AS DOUBLE), 2::DOUBLE, 4::DOUBLE, 6::DOUBLE, 9::DOUBLE, 11::DOUBLE, 13::DOUBLE, 21::DOUBLE, 36::DOUBLE, 50::DOUBLE, 64::DOUBLE]::DOUBLE[]) AS h4,
  sum(v4) AS s4,
  histogram(v5, [CAST('848.9999999999999' AS DOUBLE), 1470::DOUBLE, 1680::DOUBLE, 1862::DOUBLE, 2115::DOUBLE, 2604::DOUBLE, 3137::DOUBLE, 3524::DOUBLE, 4487::DOUBLE, 4861::DOUBLE, 5615::DOUBLE]::DOUBLE[]) AS h5,
  sum(v5) AS s5,
  histogram_exact(k6, ['west_welmwood', 'northwest', 'east_elmwood', 'north_berkeley', 'frontage_rd', 'downtown', 'thowsand_oaks', 'alcatraz_ave', 'westbrae', 'berkeley_hills', 'south_side', 'zaytuna_college']) AS h6
FROM (SELECT CASE WHEN isfinite(CAST(__today."number_of_rooms" AS DOUBLE)) THEN CAST(__today."number_of_rooms" AS DOUBLE) END AS v0,
  CASE WHEN TRY_CAST(NULLIF(trim(CAST(__today."number_of_bathrooms" AS VARCHAR)), '') AS DOUBLE) IS NULL THEN NULLIF(trim(CAST(__today."number_of_bathrooms" AS VARCHAR)), '') WHEN TRY_CAST(NULLIF(trim(CAST(__today."number_of_bathrooms" AS VARCHAR)), '') AS DOUBLE) = trunc(TRY_CAST(NULLIF(trim(CAST(__today."number_of_bathrooms" AS VARCHAR)), '') AS DOUBLE)) AND abs(TRY_CAST(NULLIF(trim(CAST(__today."number_of_bathrooms" AS VARCHAR)), '') AS DOUBLE)) < 1e15 THEN CAST(CAST(TRY_CAST(NULLIF(trim(CAST(__today."number_of_bathrooms" AS VARCHAR)), '') AS DOUBLE) AS BIGINT) AS VARCHAR) ELSE CAST(TRY_CAST(NULLIF(trim(CAST(__today."number_of_bathrooms" AS VARCHAR)), '') AS DOUBLE) AS VARCHAR) END AS k1,
  CASE WHEN isfinite(CAST(__today."sqft" AS DOUBLE)) THEN CAST(__today."sqft" AS DOUBLE) END AS v2,
  NULLIF(trim(CAST(__today."location" AS VARCHAR)), '') AS k3,
  CASE WHEN isfinite(CAST(__today."days_on_market" AS DOUBLE)) THEN CAST(__today."days_on_market" AS DOUBLE) END AS v4,
  CASE WHEN isfinite(CAST(__today."initial_price" AS DOUBLE)) THEN CAST(__today."initial_price" AS DOUBLE) END AS v5,
  NULLIF(trim(CAST(__today."neighborhood" AS VARCHAR)), '') AS k6
  FROM (
SELECT * FROM rentals_1m
) AS __today) AS __values