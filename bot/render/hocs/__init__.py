"""Discord text and embeds for Heroes of Countless Stories."""
