DROP TABLE telegram_polls;
DROP TABLE telegram_commands;
DROP TABLE telegram_chats;
DROP TABLE telegram_link_codes;
