/** Create a model (the form, its SQL and its URL state) and the live training card a CREATE MODEL shows. */
export { CreateModel } from './CreateModel';
export { dropModelSql, quoteIdent, retrainSql, retrainWithoutSql } from './create-model-sql';
export { TrainingCard } from './TrainingCard';
