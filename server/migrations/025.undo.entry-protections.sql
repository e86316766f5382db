DROP TABLE entry_protections;
