DROP TABLE bot_paper_paths;
