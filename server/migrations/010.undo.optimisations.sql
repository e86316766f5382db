DROP TABLE IF EXISTS optimisation_results;
DROP TABLE IF EXISTS optimisations;
