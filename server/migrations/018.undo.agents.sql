DROP TABLE agent_trials;
DROP TABLE agent_approvals;
DROP TABLE agent_decisions;
DROP TABLE agent_models;
DROP TABLE agent_state;
