DROP TABLE agent_llm_exchanges;
DROP TABLE agent_llm_settings;
