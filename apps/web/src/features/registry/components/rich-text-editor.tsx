import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Bold, Italic, List, ListOrdered } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

export interface TRichTextEditorProps {
  id?: string;
  value: string;
  onChange: (html: string) => void;
  readOnly?: boolean;
  labelledBy?: string;
}

/**
 * The description editor (tiptap). Loaded lazily by the endpoint page so no other route carries it.
 * It emits HTML; the server sanitises what it stores.
 */
export default function RichTextEditor({ id, value, onChange, readOnly, labelledBy }: TRichTextEditorProps) {
  const { t } = useTranslation('registry');
  const editor = useEditor({
    extensions: [StarterKit.configure({ heading: { levels: [2, 3] }, link: { openOnClick: false } })],
    content: value,
    editable: !readOnly,
    immediatelyRender: true,
    editorProps: {
      attributes: {
        ...(id ? { id } : {}),
        ...(labelledBy ? { 'aria-labelledby': labelledBy } : {}),
        'aria-multiline': 'true',
        role: 'textbox',
        class:
          'prose-sm min-h-32 max-w-none px-3 py-2 text-sm focus:outline-none [&_ol]:list-decimal [&_ol]:pl-5 [&_ul]:list-disc [&_ul]:pl-5 [&_p]:my-1',
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });

  // A new value from outside (the endpoint reloaded) replaces the content; typing does not loop back.
  // StrictMode (and tiptap's own re-creation) can hand an effect an editor already destroyed.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    if (value !== editor.getHTML() && !(value === '' && editor.isEmpty)) {
      editor.commands.setContent(value, { emitUpdate: false });
    }
  }, [editor, value]);
  useEffect(() => {
    if (editor && !editor.isDestroyed) editor.setEditable(!readOnly);
  }, [editor, readOnly]);

  const active = useEditorState({
    editor,
    selector: ({ editor: e }) => {
      if (!e || e.isDestroyed) return { bold: false, italic: false, bulletList: false, orderedList: false };
      return {
        bold: e.isActive('bold'),
        italic: e.isActive('italic'),
        bulletList: e.isActive('bulletList'),
        orderedList: e.isActive('orderedList'),
      };
    },
  });

  const tools = [
    { key: 'bold', icon: Bold, run: () => editor?.chain().focus().toggleBold().run() },
    { key: 'italic', icon: Italic, run: () => editor?.chain().focus().toggleItalic().run() },
    { key: 'bulletList', icon: List, run: () => editor?.chain().focus().toggleBulletList().run() },
    { key: 'orderedList', icon: ListOrdered, run: () => editor?.chain().focus().toggleOrderedList().run() },
  ] as const;

  return (
    <div
      className={cn(
        'rounded-md border border-input bg-background focus-within:ring-2 focus-within:ring-ring focus-within:ring-offset-2 ring-offset-background',
        readOnly && 'bg-muted/40',
      )}
    >
      {!readOnly && (
        <div role="toolbar" aria-label={t('editor.toolbar')} className="flex gap-1 border-b p-1">
          {tools.map(({ key, icon: Icon, run }) => (
            <Button
              key={key}
              type="button"
              variant="ghost"
              size="icon"
              className="size-8"
              aria-label={t(`editor.${key}`)}
              aria-pressed={active?.[key] ?? false}
              onClick={run}
            >
              <Icon aria-hidden="true" />
            </Button>
          ))}
        </div>
      )}
      <EditorContent editor={editor} />
    </div>
  );
}
