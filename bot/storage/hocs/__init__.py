"""Heroes of Countless Stories' tables: characters, combat records, encounters, sessions."""
