export type Json =
  | string
  | number
  | boolean
  | null
  | { [key: string]: Json | undefined }
  | Json[]

export type Database = {
  // Allows to automatically instantiate createClient with right options
  // instead of createClient<Database, { PostgrestVersion: 'XX' }>(URL, KEY)
  __InternalSupabase: {
    PostgrestVersion: "12"
  }
  public: {
    Tables: {
      access_log: {
        Row: {
          action: Database["public"]["Enums"]["access_action"]
          at: string
          customer_id: number | null
          detail: NonNullable<Json>
          id: number
          staff_email: string | null
          user_id: string | null
        }
        Insert: {
          action: Database["public"]["Enums"]["access_action"]
          at?: string
          customer_id?: number | null
          detail?: NonNullable<Json>
          id?: never
          staff_email?: string | null
          user_id?: string | null
        }
        Update: {
          action?: Database["public"]["Enums"]["access_action"]
          at?: string
          customer_id?: number | null
          detail?: NonNullable<Json>
          id?: never
          staff_email?: string | null
          user_id?: string | null
        }
        Relationships: []
      }
      analysis_daily_answers: {
        Row: {
          channel: string
          day: string
          kind: string
          n: number
          question_id: number
          shard: number
          source: string
          value: string
        }
        Insert: {
          channel: string
          day: string
          kind: string
          n?: number
          question_id: number
          shard?: number
          source: string
          value: string
        }
        Update: {
          channel?: string
          day?: string
          kind?: string
          n?: number
          question_id?: number
          shard?: number
          source?: string
          value?: string
        }
        Relationships: [
          {
            foreignKeyName: "analysis_daily_answers_question_id_fkey"
            columns: ["question_id"]
            isOneToOne: false
            referencedRelation: "questions"
            referencedColumns: ["id"]
          },
        ]
      }
      analysis_daily_leads: {
        Row: {
          channel: string
          day: string
          form_id: number
          leads: number
          offer_requests: number
          questionnaire_id: number | null
          shard: number
          source: string
          waited_1: number
          waited_2: number
          waited_3: number
          waited_4: number
          waited_5: number
          waited_6: number
          waited_7: number
        }
        Insert: {
          channel: string
          day: string
          form_id: number
          leads?: number
          offer_requests?: number
          questionnaire_id?: never
          shard?: number
          source: string
          waited_1?: number
          waited_2?: number
          waited_3?: number
          waited_4?: number
          waited_5?: number
          waited_6?: number
          waited_7?: number
        }
        Update: {
          channel?: string
          day?: string
          form_id?: number
          leads?: number
          offer_requests?: number
          questionnaire_id?: never
          shard?: number
          source?: string
          waited_1?: number
          waited_2?: number
          waited_3?: number
          waited_4?: number
          waited_5?: number
          waited_6?: number
          waited_7?: number
        }
        Relationships: []
      }
      answers: {
        Row: {
          answer: string
          created_at: string
          id: number
          question_id: number | null
          question_text: string
          response_id: number
        }
        Insert: {
          answer?: string
          created_at?: string
          id?: number
          question_id?: number | null
          question_text: string
          response_id: number
        }
        Update: {
          answer?: string
          created_at?: string
          id?: number
          question_id?: number | null
          question_text?: string
          response_id?: number
        }
        Relationships: [
          {
            foreignKeyName: "answers_question_id_fkey"
            columns: ["question_id"]
            isOneToOne: false
            referencedRelation: "questions"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "answers_response_id_fkey"
            columns: ["response_id"]
            isOneToOne: false
            referencedRelation: "responses"
            referencedColumns: ["id"]
          },
        ]
      }
      consent_records: {
        Row: {
          client_id: string
          consent_version: string | null
          cookie_consent: string | null
          cookie_consent_version: string | null
          data_processing_consent: boolean
          email_sha256: string
          form_id: number | null
          given_at: string
          id: number
          keep_until: string
          lead_deleted_at: string
          offer_info: boolean
          phone_sha256: string | null
          source: string
          terms_accepted: boolean
        }
        Insert: {
          client_id: string
          consent_version?: string | null
          cookie_consent?: string | null
          cookie_consent_version?: string | null
          data_processing_consent: boolean
          email_sha256: string
          form_id?: number | null
          given_at: string
          id?: never
          keep_until: string
          lead_deleted_at: string
          offer_info: boolean
          phone_sha256?: string | null
          source: string
          terms_accepted: boolean
        }
        Update: {
          client_id?: string
          consent_version?: string | null
          cookie_consent?: string | null
          cookie_consent_version?: string | null
          data_processing_consent?: boolean
          email_sha256?: string
          form_id?: number | null
          given_at?: string
          id?: never
          keep_until?: string
          lead_deleted_at?: string
          offer_info?: boolean
          phone_sha256?: string | null
          source?: string
          terms_accepted?: boolean
        }
        Relationships: []
      }
      customer_notes: {
        Row: {
          author: string | null
          body: string
          created_at: string
          customer_id: number
          id: number
          updated_at: string | null
        }
        Insert: {
          author?: string | null
          body: string
          created_at?: string
          customer_id: number
          id?: never
          updated_at?: string | null
        }
        Update: {
          author?: string | null
          body?: string
          created_at?: string
          customer_id?: number
          id?: never
          updated_at?: string | null
        }
        Relationships: [
          {
            foreignKeyName: "customer_notes_customer_id_fkey"
            columns: ["customer_id"]
            isOneToOne: false
            referencedRelation: "customer_list_rows"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "customer_notes_customer_id_fkey"
            columns: ["customer_id"]
            isOneToOne: false
            referencedRelation: "users"
            referencedColumns: ["id"]
          },
        ]
      }
      customer_summary: {
        Row: {
          customer_id: number
          last_lead_at: string | null
          lead_channel: Database["public"]["Enums"]["lead_channel"] | null
          lead_source: Database["public"]["Enums"]["lead_source"] | null
          lead_status: Database["public"]["Enums"]["lead_status"] | null
          next_follow_up_at: string | null
          questionnaire_id: number | null
        }
        Insert: {
          customer_id: number
          last_lead_at?: string | null
          lead_channel?: Database["public"]["Enums"]["lead_channel"] | null
          lead_source?: Database["public"]["Enums"]["lead_source"] | null
          lead_status?: Database["public"]["Enums"]["lead_status"] | null
          next_follow_up_at?: string | null
          questionnaire_id?: number | null
        }
        Update: {
          customer_id?: number
          last_lead_at?: string | null
          lead_channel?: Database["public"]["Enums"]["lead_channel"] | null
          lead_source?: Database["public"]["Enums"]["lead_source"] | null
          lead_status?: Database["public"]["Enums"]["lead_status"] | null
          next_follow_up_at?: string | null
          questionnaire_id?: number | null
        }
        Relationships: [
          {
            foreignKeyName: "customer_summary_customer_id_fkey"
            columns: ["customer_id"]
            isOneToOne: true
            referencedRelation: "customer_list_rows"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "customer_summary_customer_id_fkey"
            columns: ["customer_id"]
            isOneToOne: true
            referencedRelation: "users"
            referencedColumns: ["id"]
          },
        ]
      }
      desk_settings: {
        Row: {
          id: boolean
          staff_can_export: boolean
          updated_at: string
        }
        Insert: {
          id?: boolean
          staff_can_export?: boolean
          updated_at?: string
        }
        Update: {
          id?: boolean
          staff_can_export?: boolean
          updated_at?: string
        }
        Relationships: []
      }
      erasures: {
        Row: {
          at: string
          counts: NonNullable<Json>
          customer_id: number
          id: number
          staff_email: string | null
          user_id: string | null
        }
        Insert: {
          at?: string
          counts: NonNullable<Json>
          customer_id: number
          id?: never
          staff_email?: string | null
          user_id?: string | null
        }
        Update: {
          at?: string
          counts?: NonNullable<Json>
          customer_id?: number
          id?: never
          staff_email?: string | null
          user_id?: string | null
        }
        Relationships: []
      }
      export_log: {
        Row: {
          cancelled: boolean
          created_at: string
          email: string | null
          filter: NonNullable<Json>
          finished_at: string | null
          format: Database["public"]["Enums"]["export_format"]
          id: number
          row_count: number
          rows_sent: number
          rows_written: number | null
          scope: Database["public"]["Enums"]["export_scope"]
          user_id: string | null
        }
        Insert: {
          cancelled?: boolean
          created_at?: string
          email?: string | null
          filter: NonNullable<Json>
          finished_at?: string | null
          format: Database["public"]["Enums"]["export_format"]
          id?: never
          row_count: number
          rows_sent?: number
          rows_written?: number | null
          scope: Database["public"]["Enums"]["export_scope"]
          user_id?: string | null
        }
        Update: {
          cancelled?: boolean
          created_at?: string
          email?: string | null
          filter?: NonNullable<Json>
          finished_at?: string | null
          format?: Database["public"]["Enums"]["export_format"]
          id?: never
          row_count?: number
          rows_sent?: number
          rows_written?: number | null
          scope?: Database["public"]["Enums"]["export_scope"]
          user_id?: string | null
        }
        Relationships: []
      }
      follow_up_changes: {
        Row: {
          assignee_after: string | null
          assignee_before: string | null
          body_after: string | null
          body_before: string | null
          changed_at: string
          changed_by: string | null
          changed_fields: string[]
          due_after: string | null
          due_before: string | null
          follow_up_id: number
          id: number
          kind: Database["public"]["Enums"]["follow_up_change_kind"]
        }
        Insert: {
          assignee_after?: string | null
          assignee_before?: string | null
          body_after?: string | null
          body_before?: string | null
          changed_at?: string
          changed_by?: string | null
          changed_fields?: string[]
          due_after?: string | null
          due_before?: string | null
          follow_up_id: number
          id?: never
          kind: Database["public"]["Enums"]["follow_up_change_kind"]
        }
        Update: {
          assignee_after?: string | null
          assignee_before?: string | null
          body_after?: string | null
          body_before?: string | null
          changed_at?: string
          changed_by?: string | null
          changed_fields?: string[]
          due_after?: string | null
          due_before?: string | null
          follow_up_id?: number
          id?: never
          kind?: Database["public"]["Enums"]["follow_up_change_kind"]
        }
        Relationships: [
          {
            foreignKeyName: "follow_up_changes_follow_up_id_fkey"
            columns: ["follow_up_id"]
            isOneToOne: false
            referencedRelation: "follow_ups"
            referencedColumns: ["id"]
          },
        ]
      }
      follow_ups: {
        Row: {
          assignee: string | null
          automatic: boolean
          body: string
          created_at: string
          created_by: string | null
          customer_id: number
          done_at: string | null
          done_by: string | null
          due_at: string
          id: number
          response_id: number | null
        }
        Insert: {
          assignee?: string | null
          automatic?: boolean
          body?: string
          created_at?: string
          created_by?: string | null
          customer_id: number
          done_at?: string | null
          done_by?: string | null
          due_at: string
          id?: never
          response_id?: number | null
        }
        Update: {
          assignee?: string | null
          automatic?: boolean
          body?: string
          created_at?: string
          created_by?: string | null
          customer_id?: number
          done_at?: string | null
          done_by?: string | null
          due_at?: string
          id?: never
          response_id?: number | null
        }
        Relationships: [
          {
            foreignKeyName: "follow_ups_customer_id_fkey"
            columns: ["customer_id"]
            isOneToOne: false
            referencedRelation: "customer_list_rows"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "follow_ups_customer_id_fkey"
            columns: ["customer_id"]
            isOneToOne: false
            referencedRelation: "users"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "follow_ups_response_id_fkey"
            columns: ["response_id"]
            isOneToOne: false
            referencedRelation: "responses"
            referencedColumns: ["id"]
          },
        ]
      }
      forms: {
        Row: {
          created_at: string
          description: string
          document: string | null
          id: number
          image: string | null
          title: string
        }
        Insert: {
          created_at?: string
          description?: string
          document?: string | null
          id?: number
          image?: string | null
          title: string
        }
        Update: {
          created_at?: string
          description?: string
          document?: string | null
          id?: number
          image?: string | null
          title?: string
        }
        Relationships: []
      }
      lead_mail_outbox: {
        Row: {
          attempts: number
          created_at: string
          digest_key: string | null
          id: number
          idempotency_key: string
          kind: Database["public"]["Enums"]["lead_mail_mode"]
          last_error: string | null
          next_attempt_at: string
          response_id: number
          sent_at: string | null
          state: Database["public"]["Enums"]["lead_mail_state"]
        }
        Insert: {
          attempts?: number
          created_at?: string
          digest_key?: string | null
          id?: never
          idempotency_key: string
          kind: Database["public"]["Enums"]["lead_mail_mode"]
          last_error?: string | null
          next_attempt_at?: string
          response_id: number
          sent_at?: string | null
          state?: Database["public"]["Enums"]["lead_mail_state"]
        }
        Update: {
          attempts?: number
          created_at?: string
          digest_key?: string | null
          id?: never
          idempotency_key?: string
          kind?: Database["public"]["Enums"]["lead_mail_mode"]
          last_error?: string | null
          next_attempt_at?: string
          response_id?: number
          sent_at?: string | null
          state?: Database["public"]["Enums"]["lead_mail_state"]
        }
        Relationships: [
          {
            foreignKeyName: "lead_mail_outbox_response_id_fkey"
            columns: ["response_id"]
            isOneToOne: false
            referencedRelation: "responses"
            referencedColumns: ["id"]
          },
        ]
      }
      lead_mail_settings: {
        Row: {
          address: string | null
          digest_hour: number
          digest_sent_on: string | null
          enabled: boolean
          id: boolean
          mode: Database["public"]["Enums"]["lead_mail_mode"]
          updated_at: string
          updated_by: string | null
        }
        Insert: {
          address?: string | null
          digest_hour?: number
          digest_sent_on?: string | null
          enabled?: boolean
          id?: boolean
          mode?: Database["public"]["Enums"]["lead_mail_mode"]
          updated_at?: string
          updated_by?: string | null
        }
        Update: {
          address?: string | null
          digest_hour?: number
          digest_sent_on?: string | null
          enabled?: boolean
          id?: boolean
          mode?: Database["public"]["Enums"]["lead_mail_mode"]
          updated_at?: string
          updated_by?: string | null
        }
        Relationships: []
      }
      lead_status_changes: {
        Row: {
          changed_at: string
          changed_by: string | null
          id: number
          note: string | null
          response_id: number
          status: Database["public"]["Enums"]["lead_status"]
        }
        Insert: {
          changed_at?: string
          changed_by?: string | null
          id?: never
          note?: string | null
          response_id: number
          status: Database["public"]["Enums"]["lead_status"]
        }
        Update: {
          changed_at?: string
          changed_by?: string | null
          id?: never
          note?: string | null
          response_id?: number
          status?: Database["public"]["Enums"]["lead_status"]
        }
        Relationships: [
          {
            foreignKeyName: "lead_status_changes_response_id_fkey"
            columns: ["response_id"]
            isOneToOne: false
            referencedRelation: "responses"
            referencedColumns: ["id"]
          },
        ]
      }
      questions: {
        Row: {
          analysis_bucket: Database["public"]["Enums"]["analysis_bucket"] | null
          created_at: string
          custome_description: string | null
          form_id: number
          id: number
          information: string | null
          key: string | null
          multipleAnswers: boolean
          options: NonNullable<Json>
          question: string
          required: boolean
          sequence: number
          type: Database["public"]["Enums"]["question_type"]
        }
        Insert: {
          analysis_bucket?:
            | Database["public"]["Enums"]["analysis_bucket"]
            | null
          created_at?: string
          custome_description?: string | null
          form_id: number
          id?: number
          information?: string | null
          key?: string | null
          multipleAnswers?: boolean
          options?: NonNullable<Json>
          question: string
          required?: boolean
          sequence: number
          type: Database["public"]["Enums"]["question_type"]
        }
        Update: {
          analysis_bucket?:
            | Database["public"]["Enums"]["analysis_bucket"]
            | null
          created_at?: string
          custome_description?: string | null
          form_id?: number
          id?: number
          information?: string | null
          key?: string | null
          multipleAnswers?: boolean
          options?: NonNullable<Json>
          question?: string
          required?: boolean
          sequence?: number
          type?: Database["public"]["Enums"]["question_type"]
        }
        Relationships: [
          {
            foreignKeyName: "questions_form_id_fkey"
            columns: ["form_id"]
            isOneToOne: false
            referencedRelation: "forms"
            referencedColumns: ["id"]
          },
        ]
      }
      request_counters: {
        Row: {
          blocked_until: string | null
          expires_at: string
          hits: number
          key_hash: string
          scope: string
          started_at: string
        }
        Insert: {
          blocked_until?: string | null
          expires_at: string
          hits: number
          key_hash: string
          scope: string
          started_at: string
        }
        Update: {
          blocked_until?: string | null
          expires_at?: string
          hits?: number
          key_hash?: string
          scope?: string
          started_at?: string
        }
        Relationships: []
      }
      responses: {
        Row: {
          adress: string | null
          birthdate: string | null
          call_time: string | null
          captured_at: string | null
          changed_date: string
          changed_user: string | null
          channel: Database["public"]["Enums"]["lead_channel"]
          city: string | null
          client_id: string
          consent_version: string | null
          cookie_consent: string | null
          cookie_consent_version: string | null
          create_date: string
          create_user: string | null
          data_processing_consent: boolean
          email: string
          existing_customer: boolean | null
          first_name: string
          form_id: number
          id: number
          last_name: string
          message: string | null
          offer_info: boolean
          payload_hash: string
          phone: string
          postcode: string | null
          questionnaire_id: number | null
          received_at: string
          salutation: string | null
          source: Database["public"]["Enums"]["lead_source"]
          status: Database["public"]["Enums"]["lead_status"]
          terms_accepted: boolean
          title: string | null
          user_id: number | null
          waited_offline: boolean
        }
        Insert: {
          adress?: string | null
          birthdate?: string | null
          call_time?: string | null
          captured_at?: string | null
          changed_date: string
          changed_user?: string | null
          channel?: Database["public"]["Enums"]["lead_channel"]
          city?: string | null
          client_id: string
          consent_version?: string | null
          cookie_consent?: string | null
          cookie_consent_version?: string | null
          create_date: string
          create_user?: string | null
          data_processing_consent: boolean
          email: string
          existing_customer?: boolean | null
          first_name: string
          form_id: number
          id?: number
          last_name: string
          message?: string | null
          offer_info?: boolean
          payload_hash: string
          phone: string
          postcode?: string | null
          questionnaire_id?: never
          received_at?: string
          salutation?: string | null
          source: Database["public"]["Enums"]["lead_source"]
          status?: Database["public"]["Enums"]["lead_status"]
          terms_accepted: boolean
          title?: string | null
          user_id?: number | null
          waited_offline?: boolean
        }
        Update: {
          adress?: string | null
          birthdate?: string | null
          call_time?: string | null
          captured_at?: string | null
          changed_date?: string
          changed_user?: string | null
          channel?: Database["public"]["Enums"]["lead_channel"]
          city?: string | null
          client_id?: string
          consent_version?: string | null
          cookie_consent?: string | null
          cookie_consent_version?: string | null
          create_date?: string
          create_user?: string | null
          data_processing_consent?: boolean
          email?: string
          existing_customer?: boolean | null
          first_name?: string
          form_id?: number
          id?: number
          last_name?: string
          message?: string | null
          offer_info?: boolean
          payload_hash?: string
          phone?: string
          postcode?: string | null
          questionnaire_id?: never
          received_at?: string
          salutation?: string | null
          source?: Database["public"]["Enums"]["lead_source"]
          status?: Database["public"]["Enums"]["lead_status"]
          terms_accepted?: boolean
          title?: string | null
          user_id?: number | null
          waited_offline?: boolean
        }
        Relationships: [
          {
            foreignKeyName: "responses_form_id_fkey"
            columns: ["form_id"]
            isOneToOne: false
            referencedRelation: "forms"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "responses_user_id_fkey"
            columns: ["user_id"]
            isOneToOne: false
            referencedRelation: "customer_list_rows"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "responses_user_id_fkey"
            columns: ["user_id"]
            isOneToOne: false
            referencedRelation: "users"
            referencedColumns: ["id"]
          },
        ]
      }
      retention_file_queue: {
        Row: {
          bucket_id: string
          id: number
          name: string
          queued_at: string
          version: string | null
        }
        Insert: {
          bucket_id: string
          id?: never
          name: string
          queued_at?: string
          version?: string | null
        }
        Update: {
          bucket_id?: string
          id?: never
          name?: string
          queued_at?: string
          version?: string | null
        }
        Relationships: []
      }
      retention_holds: {
        Row: {
          created_at: string
          created_by: string | null
          customer_id: number
          id: number
          reason: string
          until: string | null
        }
        Insert: {
          created_at?: string
          created_by?: string | null
          customer_id: number
          id?: never
          reason: string
          until?: string | null
        }
        Update: {
          created_at?: string
          created_by?: string | null
          customer_id?: number
          id?: never
          reason?: string
          until?: string | null
        }
        Relationships: [
          {
            foreignKeyName: "retention_holds_customer_id_fkey"
            columns: ["customer_id"]
            isOneToOne: false
            referencedRelation: "customer_list_rows"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "retention_holds_customer_id_fkey"
            columns: ["customer_id"]
            isOneToOne: false
            referencedRelation: "users"
            referencedColumns: ["id"]
          },
        ]
      }
      retention_runs: {
        Row: {
          as_of: string
          finished_at: string | null
          id: number
          removed: NonNullable<Json>
          started_at: string
        }
        Insert: {
          as_of: string
          finished_at?: string | null
          id?: never
          removed?: NonNullable<Json>
          started_at?: string
        }
        Update: {
          as_of?: string
          finished_at?: string | null
          id?: never
          removed?: NonNullable<Json>
          started_at?: string
        }
        Relationships: []
      }
      staff: {
        Row: {
          created_at: string
          display_name: string | null
          email: string
          role: Database["public"]["Enums"]["staff_role"]
          user_id: string
        }
        Insert: {
          created_at?: string
          display_name?: string | null
          email: string
          role?: Database["public"]["Enums"]["staff_role"]
          user_id: string
        }
        Update: {
          created_at?: string
          display_name?: string | null
          email?: string
          role?: Database["public"]["Enums"]["staff_role"]
          user_id?: string
        }
        Relationships: []
      }
      staff_mail_outbox: {
        Row: {
          attempts: number
          created_at: string
          id: number
          last_error: string | null
          next_attempt_at: string
          sent_at: string | null
          state: Database["public"]["Enums"]["lead_mail_state"]
          user_id: string
        }
        Insert: {
          attempts?: number
          created_at?: string
          id?: never
          last_error?: string | null
          next_attempt_at?: string
          sent_at?: string | null
          state?: Database["public"]["Enums"]["lead_mail_state"]
          user_id: string
        }
        Update: {
          attempts?: number
          created_at?: string
          id?: never
          last_error?: string | null
          next_attempt_at?: string
          sent_at?: string | null
          state?: Database["public"]["Enums"]["lead_mail_state"]
          user_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "staff_mail_outbox_user_id_fkey"
            columns: ["user_id"]
            isOneToOne: false
            referencedRelation: "staff"
            referencedColumns: ["user_id"]
          },
        ]
      }
      support_messages: {
        Row: {
          created_at: string
          done_at: string | null
          done_by: string | null
          email: string
          id: number
          message: string
          name: string
          read_at: string | null
          read_by: string | null
          user_id: string | null
        }
        Insert: {
          created_at?: string
          done_at?: string | null
          done_by?: string | null
          email: string
          id?: never
          message: string
          name: string
          read_at?: string | null
          read_by?: string | null
          user_id?: string | null
        }
        Update: {
          created_at?: string
          done_at?: string | null
          done_by?: string | null
          email?: string
          id?: never
          message?: string
          name?: string
          read_at?: string | null
          read_by?: string | null
          user_id?: string | null
        }
        Relationships: []
      }
      users: {
        Row: {
          adress: string | null
          city: string | null
          created_at: string
          email: string
          first_name: string
          id: number
          last_name: string
          phone: string | null
          postcode: string | null
          staff_edited: string[]
          updated_at: string
        }
        Insert: {
          adress?: string | null
          city?: string | null
          created_at?: string
          email: string
          first_name: string
          id?: number
          last_name: string
          phone?: string | null
          postcode?: string | null
          staff_edited?: string[]
          updated_at?: string
        }
        Update: {
          adress?: string | null
          city?: string | null
          created_at?: string
          email?: string
          first_name?: string
          id?: number
          last_name?: string
          phone?: string | null
          postcode?: string | null
          staff_edited?: string[]
          updated_at?: string
        }
        Relationships: []
      }
    }
    Views: {
      customer_list_rows: {
        Row: {
          adress: string | null
          city: string | null
          created_at: string | null
          email: string | null
          first_name: string | null
          id: number | null
          last_lead_at: string | null
          last_name: string | null
          lead_channel: Database["public"]["Enums"]["lead_channel"] | null
          lead_source: Database["public"]["Enums"]["lead_source"] | null
          lead_status: Database["public"]["Enums"]["lead_status"] | null
          next_follow_up_at: string | null
          phone: string | null
          postcode: string | null
          questionnaire_title: string | null
          updated_at: string | null
        }
        Relationships: []
      }
    }
    Functions: {
      analysis_add_answer: {
        Args: {
          answer_question_id: number
          answer_response_id: number
          answer_text: string
          sign: number
        }
        Returns: undefined
      }
      analysis_add_lead: {
        Args: {
          r: Database["public"]["Tables"]["responses"]["Row"]
          sign: number
        }
        Returns: undefined
      }
      analysis_add_lead_answers: {
        Args: {
          r: Database["public"]["Tables"]["responses"]["Row"]
          sign: number
        }
        Returns: undefined
      }
      analysis_answer_distribution: {
        Args: {
          day_from: string
          day_to: string
          lead_channel?: string
          questionnaire_id: number
        }
        Returns: {
          kind: string
          n: number
          question_id: number
          value: string
        }[]
      }
      analysis_answer_items: {
        Args: {
          answer: string
          bucket: string
          multi: boolean
          options: Json
          question_type: string
        }
        Returns: {
          kind: string
          n: number
          value: string
        }[]
      }
      analysis_conversion: {
        Args: {
          day_from: string
          day_to: string
          lead_channel?: string
          questionnaire_id?: number
        }
        Returns: {
          channel: string
          closed: number
          dimension: string
          form_id: number
          form_title: string
          leads: number
          rate: number
          source: string
        }[]
      }
      analysis_counter_shard: {
        Args: Record<PropertyKey, never>
        Returns: number
      }
      analysis_days: {
        Args: {
          day_from: string
          day_to: string
          lead_channel: string
          questionnaire_id: number
        }
        Returns: {
          channel: string
          day: string
          form_id: number
          leads: number
          offer_requests: number
          questionnaire_id: number | null
          shard: number
          source: string
          waited_1: number
          waited_2: number
          waited_3: number
          waited_4: number
          waited_5: number
          waited_6: number
          waited_7: number
        }[]
        SetofOptions: {
          from: "*"
          to: "analysis_daily_leads"
          isOneToOne: false
          isSetofReturn: true
        }
      }
      analysis_delay_bucket: {
        Args: {
          captured_at: string
          received_at: string
          waited_offline: boolean
        }
        Returns: number
      }
      analysis_lead_day: {
        Args: { captured_at: string; received_at: string }
        Returns: string
      }
      analysis_lead_times: {
        Args: {
          day_from: string
          day_to: string
          lead_channel: string
          questionnaire_id: number
        }
        Returns: {
          data_since: string
          first_lead_at: string
          last_lead_at: string
          median_delay_seconds: number
        }[]
      }
      analysis_leads: {
        Args: {
          day_from: string
          day_to: string
          lead_channel: string
          questionnaire_id: number
        }
        Returns: {
          captured_at: string
          id: number
          received_at: string
          waited_offline: boolean
        }[]
      }
      analysis_leads_over_time: {
        Args: {
          bucket?: string
          day_from: string
          day_to: string
          lead_channel?: string
          questionnaire_id?: number
        }
        Returns: {
          channel: string
          leads: number
          period_start: string
          source: string
        }[]
      }
      analysis_offline_delay: {
        Args: {
          day_from: string
          day_to: string
          lead_channel?: string
          questionnaire_id?: number
        }
        Returns: {
          lower_seconds: number
          n: number
          upper_seconds: number
        }[]
      }
      analysis_overview: {
        Args: {
          day_from: string
          day_to: string
          lead_channel?: string
          questionnaire_id?: number
        }
        Returns: {
          contact_leads: number
          data_since: string
          fair_tablet_leads: number
          first_lead_at: string
          kfz_leads: number
          last_lead_at: string
          leads: number
          median_delay_seconds: number
          offer_requests: number
          offline_leads: number
          questionnaire_leads: number
          web_leads: number
        }[]
      }
      apply_retention: {
        Args: { p_dry_run?: boolean; p_now?: string }
        Returns: {
          items: number
          kind: string
          oldest: string
        }[]
      }
      begin_export: {
        Args: {
          customer_search?: string
          day_from?: string
          day_to?: string
          export_format: string
          export_scope: string
          lead_channel?: string
          lead_source?: string
          lead_status?: string
          open_follow_up?: boolean
          questionnaire_id?: number
          received_from?: string
          received_to?: string
        }
        Returns: {
          export_id: number
          row_count: number
        }[]
      }
      call_time_window: {
        Args: { call_time: string }
        Returns: Record<string, unknown>
      }
      callback_due_at: {
        Args: { call_time: string; stored_at: string }
        Returns: string
      }
      callback_follow_up_body: { Args: { call_time: string }; Returns: string }
      callbacks_waiting: { Args: { received_since?: string }; Returns: number }
      can_export: { Args: Record<PropertyKey, never>; Returns: boolean }
      complete_follow_up: { Args: { follow_up_id: number }; Returns: boolean }
      complete_follow_ups: {
        Args: { follow_up_ids: number[] }
        Returns: number
      }
      contact_sha256: { Args: { contact: string }; Returns: string }
      customer_count: { Args: Record<PropertyKey, never>; Returns: number }
      customer_data_export: { Args: { customer_id: number }; Returns: Json }
      customer_erasure_preview: { Args: { customer_id: number }; Returns: Json }
      customer_follow_ups: {
        Args: { of_customer: number }
        Returns: {
          assignee: string
          assignee_name: string
          automatic: boolean
          body: string
          customer_id: number
          customer_name: string
          due_at: string
          id: number
          overdue: boolean
          response_id: number
        }[]
      }
      customer_lead_contacts: {
        Args: { customer_id: number }
        Returns: {
          adress: string
          captured_at: string
          city: string
          email: string
          first_name: string
          id: number
          last_name: string
          phone: string
          postcode: string
          received_at: string
        }[]
      }
      customer_lead_statuses: {
        Args: { customer_ids: number[] }
        Returns: {
          customer_id: number
          last_lead_at: string
          lead_status: Database["public"]["Enums"]["lead_status"]
        }[]
      }
      customer_leads: {
        Args: { customer_id: number }
        Returns: {
          adress: string
          answers: Json
          birthdate: string
          call_time: string
          captured_at: string
          channel: Database["public"]["Enums"]["lead_channel"]
          city: string
          consent_version: string
          cookie_consent: string
          cookie_consent_version: string
          create_date: string
          data_processing_consent: boolean
          email: string
          existing_customer: boolean
          first_name: string
          form_id: number
          form_title: string
          id: number
          last_name: string
          message: string
          offer_info: boolean
          phone: string
          postcode: string
          received_at: string
          salutation: string
          source: Database["public"]["Enums"]["lead_source"]
          status: Database["public"]["Enums"]["lead_status"]
          terms_accepted: boolean
          title: string
        }[]
      }
      customer_list: {
        Args: {
          form_id?: number
          open_follow_up?: boolean
          received_from?: string
          received_to?: string
          source?: string
          status?: string
          term?: string
        }
        Returns: {
          adress: string
          city: string
          created_at: string
          email: string
          first_name: string
          id: number
          last_lead_at: string
          last_name: string
          lead_channel: Database["public"]["Enums"]["lead_channel"]
          lead_source: Database["public"]["Enums"]["lead_source"]
          lead_status: Database["public"]["Enums"]["lead_status"]
          next_follow_up_at: string
          phone: string
          postcode: string
          questionnaire_title: string
          updated_at: string
        }[]
      }
      customer_note_list: {
        Args: { customer_id: number }
        Returns: {
          author: string
          author_name: string
          body: string
          created_at: string
          id: number
          mine: boolean
          updated_at: string
        }[]
      }
      delete_leads_keeping_proof: {
        Args: { deleted_at: string; lead_ids: number[] }
        Returns: number
      }
      desk_customer_list: {
        Args: {
          form_id?: number
          open_follow_up?: boolean
          received_from?: string
          received_to?: string
          source?: string
          status?: string
          term?: string
        }
        Returns: {
          adress: string
          city: string
          created_at: string
          email: string
          first_name: string
          id: number
          last_lead_at: string
          last_name: string
          lead_channel: Database["public"]["Enums"]["lead_channel"]
          lead_source: Database["public"]["Enums"]["lead_source"]
          lead_status: Database["public"]["Enums"]["lead_status"]
          next_follow_up_at: string
          phone: string
          postcode: string
          questionnaire_title: string
          updated_at: string
        }[]
      }
      desk_newest_leads: {
        Args: { lead_limit?: number }
        Returns: {
          first_name: string
          form_title: string
          id: number
          last_name: string
          received_at: string
          source: Database["public"]["Enums"]["lead_source"]
          user_id: number
        }[]
      }
      desk_search_customers: {
        Args: { term: string }
        Returns: {
          adress: string | null
          city: string | null
          created_at: string
          email: string
          first_name: string
          id: number
          last_name: string
          phone: string | null
          postcode: string | null
          staff_edited: string[]
          updated_at: string
        }[]
        SetofOptions: {
          from: "*"
          to: "users"
          isOneToOne: false
          isSetofReturn: true
        }
      }
      erase_customer: { Args: { customer_id: number }; Returns: Json }
      export_leads: {
        Args: {
          customer_search: string
          day_from: string
          day_to: string
          lead_channel: string
          lead_source?: string
          lead_status?: string
          open_follow_up?: boolean
          questionnaire_id: number
          received_from?: string
          received_to?: string
        }
        Returns: {
          adress: string | null
          birthdate: string | null
          call_time: string | null
          captured_at: string | null
          changed_date: string
          changed_user: string | null
          channel: Database["public"]["Enums"]["lead_channel"]
          city: string | null
          client_id: string
          consent_version: string | null
          cookie_consent: string | null
          cookie_consent_version: string | null
          create_date: string
          create_user: string | null
          data_processing_consent: boolean
          email: string
          existing_customer: boolean | null
          first_name: string
          form_id: number
          id: number
          last_name: string
          message: string | null
          offer_info: boolean
          payload_hash: string
          phone: string
          postcode: string | null
          questionnaire_id: number | null
          received_at: string
          salutation: string | null
          source: Database["public"]["Enums"]["lead_source"]
          status: Database["public"]["Enums"]["lead_status"]
          terms_accepted: boolean
          title: string | null
          user_id: number | null
          waited_offline: boolean
        }[]
        SetofOptions: {
          from: "*"
          to: "responses"
          isOneToOne: false
          isSetofReturn: true
        }
      }
      export_page: {
        Args: { after_id?: number; export_id: number; page_size?: number }
        Returns: Json
      }
      export_responses: {
        Args: { after_id?: number; export_id: number; page_size?: number }
        Returns: {
          adress: string
          answers: Json
          birthdate: string
          call_time: string
          captured_at: string
          channel: Database["public"]["Enums"]["lead_channel"]
          city: string
          consent_version: string
          cookie_consent: string
          cookie_consent_version: string
          customer_id: number
          data_processing_consent: boolean
          email: string
          existing_customer: boolean
          first_name: string
          form_id: number
          form_title: string
          last_name: string
          lead_at: string
          message: string
          offer_info: boolean
          phone: string
          postcode: string
          received_at: string
          response_id: number
          salutation: string
          source: Database["public"]["Enums"]["lead_source"]
          status: Database["public"]["Enums"]["lead_status"]
          terms_accepted: boolean
          title: string
        }[]
      }
      export_rows: {
        Args: { after_id: number; export_filter: Json; page_size: number }
        Returns: {
          adress: string
          answers: Json
          birthdate: string
          call_time: string
          captured_at: string
          channel: Database["public"]["Enums"]["lead_channel"]
          city: string
          consent_version: string
          cookie_consent: string
          cookie_consent_version: string
          customer_id: number
          data_processing_consent: boolean
          email: string
          existing_customer: boolean
          first_name: string
          form_id: number
          form_title: string
          last_name: string
          lead_at: string
          message: string
          offer_info: boolean
          phone: string
          postcode: string
          received_at: string
          response_id: number
          salutation: string
          source: Database["public"]["Enums"]["lead_source"]
          status: Database["public"]["Enums"]["lead_status"]
          terms_accepted: boolean
          title: string
        }[]
      }
      finish_export: {
        Args: { export_id: number; was_cancelled: boolean }
        Returns: undefined
      }
      follow_up_counts: {
        Args: Record<PropertyKey, never>
        Returns: {
          overdue: number
          this_week: number
          today: number
          unassigned: number
        }[]
      }
      follow_up_list: {
        Args: {
          assigned?: string
          due?: string
          page_offset?: number
          page_size?: number
        }
        Returns: {
          assignee: string
          assignee_name: string
          automatic: boolean
          body: string
          customer_id: number
          customer_name: string
          done_at: string
          done_by_name: string
          due_at: string
          id: number
          overdue: boolean
          response_id: number
          total: number
        }[]
      }
      forget_person_terms: { Args: { terms: string[] }; Returns: Json }
      intake_lead: {
        Args: { lead: Json }
        Returns: {
          missing_question_ids: number[]
          outcome: string
          stored_id: number
        }[]
      }
      is_admin: { Args: Record<PropertyKey, never>; Returns: boolean }
      is_staff: { Args: Record<PropertyKey, never>; Returns: boolean }
      keeping_figures: { Args: Record<PropertyKey, never>; Returns: boolean }
      lead_activity: {
        Args: { customer_id: number }
        Returns: {
          assignee_name: string
          at: string
          body: string
          by_name: string
          changed: string[]
          due_at: string
          kind: string
          response_id: number
        }[]
      }
      lead_fill: {
        Args: {
          field: string
          kept: string
          offered: string
          staff_edited: string[]
        }
        Returns: string
      }
      lead_mail_overview: {
        Args: Record<PropertyKey, never>
        Returns: {
          failed: number
          last_sent_at: string
          waiting: number
        }[]
      }
      lead_questionnaire_id:
        | {
            Args: {
              form_id: number
              source: Database["public"]["Enums"]["lead_source"]
            }
            Returns: number
          }
        | { Args: { form_id: number; source: string }; Returns: number }
      lead_status_counts: {
        Args: Record<PropertyKey, never>
        Returns: {
          leads: number
          status: string
        }[]
      }
      lead_status_history: {
        Args: { customer_id: number }
        Returns: {
          changed_at: string
          changed_by_name: string
          id: number
          note: string
          response_id: number
          status: string
        }[]
      }
      log_access: {
        Args: { action: string; customer_id: number; detail?: Json }
        Returns: undefined
      }
      log_access_once: {
        Args: { action: string; customer_id: number; detail?: Json }
        Returns: undefined
      }
      may_run_retention: { Args: Record<PropertyKey, never>; Returns: boolean }
      merge_lead_customer: {
        Args: {
          lead_adress: string
          lead_city: string
          lead_email: string
          lead_first_name: string
          lead_last_name: string
          lead_phone: string
          lead_postcode: string
        }
        Returns: number
      }
      move_question: {
        Args: { question_id: number; steps: number }
        Returns: {
          analysis_bucket: Database["public"]["Enums"]["analysis_bucket"] | null
          created_at: string
          custome_description: string | null
          form_id: number
          id: number
          information: string | null
          key: string | null
          multipleAnswers: boolean
          options: NonNullable<Json>
          question: string
          required: boolean
          sequence: number
          type: Database["public"]["Enums"]["question_type"]
        }[]
        SetofOptions: {
          from: "*"
          to: "questions"
          isOneToOne: false
          isSetofReturn: true
        }
      }
      normalized_email: { Args: { email: string }; Returns: string }
      open_customer: {
        Args: { customer_id: number }
        Returns: {
          adress: string | null
          city: string | null
          created_at: string
          email: string
          first_name: string
          id: number
          last_name: string
          phone: string | null
          postcode: string | null
          staff_edited: string[]
          updated_at: string
        }[]
        SetofOptions: {
          from: "*"
          to: "users"
          isOneToOne: false
          isSetofReturn: true
        }
      }
      person_and_lead_terms: {
        Args: {
          email: string
          first_name: string
          last_name: string
          lead_ids: number[]
          phone: string
        }
        Returns: string[]
      }
      person_lead_ids: {
        Args: { customer_id: number; email: string }
        Returns: number[]
      }
      person_terms: {
        Args: {
          email: string
          first_name: string
          last_name: string
          phone: string
        }
        Returns: string[]
      }
      phone_digits: { Args: { phone: string }; Returns: string }
      questionnaire_lead_counts: {
        Args: { received_since?: string }
        Returns: {
          form_id: number
          leads: number
        }[]
      }
      redact_terms: {
        Args: { content: string; terms: string[] }
        Returns: string
      }
      refresh_customer_summary: {
        Args: { customer: number }
        Returns: undefined
      }
      refuse_export_unless_allowed: {
        Args: Record<PropertyKey, never>
        Returns: undefined
      }
      refuse_staff_account: { Args: { user_id: string }; Returns: undefined }
      reopen_follow_up: { Args: { follow_up_id: number }; Returns: boolean }
      require_staff: { Args: { admin_only?: boolean }; Returns: undefined }
      search_customers: {
        Args: { term: string }
        Returns: {
          adress: string | null
          city: string | null
          created_at: string
          email: string
          first_name: string
          id: number
          last_name: string
          phone: string | null
          postcode: string | null
          staff_edited: string[]
          updated_at: string
        }[]
        SetofOptions: {
          from: "*"
          to: "users"
          isOneToOne: false
          isSetofReturn: true
        }
      }
      set_display_name: { Args: { name: string }; Returns: string }
      set_lead_status: {
        Args: { note?: string; response_id: number; status: string }
        Returns: {
          changed_at: string
          changed_by: string | null
          id: number
          note: string | null
          response_id: number
          status: Database["public"]["Enums"]["lead_status"]
        }[]
        SetofOptions: {
          from: "*"
          to: "lead_status_changes"
          isOneToOne: false
          isSetofReturn: true
        }
      }
      set_staff_role: {
        Args: { role: string; user_id: string }
        Returns: undefined
      }
      staff_accounts: {
        Args: Record<PropertyKey, never>
        Returns: {
          confirmed_at: string
          email: string
          registered_at: string
          role: string
          user_id: string
        }[]
      }
      staff_directory: {
        Args: Record<PropertyKey, never>
        Returns: {
          name: string
          role: string
          user_id: string
        }[]
      }
      staff_role: { Args: Record<PropertyKey, never>; Returns: string }
      store_leads: { Args: { batch: Json }; Returns: Json }
      term_names_person: {
        Args: { term: string; terms: string[] }
        Returns: boolean
      }
    }
    Enums: {
      access_action:
        | "customer_viewed"
        | "answers_viewed"
        | "customer_changed"
        | "customer_searched"
        | "customer_exported"
        | "customer_erased"
        | "leads_exported"
        | "lead_deleted"
        | "lead_status_changed"
      analysis_bucket: "birth_decade"
      export_format: "csv" | "xlsx"
      export_scope: "customers" | "analysis"
      follow_up_change_kind: "changed" | "done" | "reopened"
      lead_channel: "web" | "fair_tablet"
      lead_mail_mode: "immediate" | "digest"
      lead_mail_state: "pending" | "sent" | "failed" | "cancelled"
      lead_source: "questionnaire" | "kfz" | "contact"
      lead_status:
        | "new"
        | "contacted"
        | "appointment"
        | "offer_sent"
        | "closed"
        | "no_interest"
      question_type: "multiple-choice" | "input"
      staff_role: "pending" | "staff" | "admin"
    }
    CompositeTypes: {
      [_ in never]: never
    }
  }
}

type DatabaseWithoutInternals = Omit<Database, "__InternalSupabase">

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, "public">]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])[TableName] extends {
      Row: infer R
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema["Tables"] &
        DefaultSchema["Views"])
    ? (DefaultSchema["Tables"] &
        DefaultSchema["Views"])[DefaultSchemaTableNameOrOptions] extends {
        Row: infer R
      }
      ? R
      : never
    : never

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Insert: infer I
    }
    ? I
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Insert: infer I
      }
      ? I
      : never
    : never

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Update: infer U
    }
    ? U
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Update: infer U
      }
      ? U
      : never
    : never

export type Enums<
  DefaultSchemaEnumNameOrOptions extends
    | keyof DefaultSchema["Enums"]
    | { schema: keyof DatabaseWithoutInternals },
  EnumName extends (DefaultSchemaEnumNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"]
    : never) = never,
> = DefaultSchemaEnumNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"]
    ? DefaultSchema["Enums"][DefaultSchemaEnumNameOrOptions]
    : never

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    | keyof DefaultSchema["CompositeTypes"]
    | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends (PublicCompositeTypeNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"]
    : never) = never,
> = PublicCompositeTypeNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"]
    ? DefaultSchema["CompositeTypes"][PublicCompositeTypeNameOrOptions]
    : never

export const Constants = {
  public: {
    Enums: {
      access_action: [
        "customer_viewed",
        "answers_viewed",
        "customer_changed",
        "customer_searched",
        "customer_exported",
        "customer_erased",
        "leads_exported",
        "lead_deleted",
        "lead_status_changed",
      ],
      analysis_bucket: ["birth_decade"],
      export_format: ["csv", "xlsx"],
      export_scope: ["customers", "analysis"],
      follow_up_change_kind: ["changed", "done", "reopened"],
      lead_channel: ["web", "fair_tablet"],
      lead_mail_mode: ["immediate", "digest"],
      lead_mail_state: ["pending", "sent", "failed", "cancelled"],
      lead_source: ["questionnaire", "kfz", "contact"],
      lead_status: [
        "new",
        "contacted",
        "appointment",
        "offer_sent",
        "closed",
        "no_interest",
      ],
      question_type: ["multiple-choice", "input"],
      staff_role: ["pending", "staff", "admin"],
    },
  },
} as const
