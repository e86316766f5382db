DROP TABLE IF EXISTS agent_trainings;
